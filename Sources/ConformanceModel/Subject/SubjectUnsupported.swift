/// Thrown by ``ConformanceSubject/makeStack(for:)`` when the subject cannot build a stack for a case's
/// environment (for example a root it cannot trust): the case is SKIP with ``reason``, not ERROR.
public struct SubjectUnsupported: Error, Sendable, CustomStringConvertible {

    /// Why the subject cannot run the case.
    public let reason: String

    /// Creates the error.
    public init(_ reason: String) {
        self.reason = reason
    }

    public var description: String { reason }
}
