/// An error thrown by ``MockServer``: a stable ``code`` to compare against, and a ``message`` for humans.
///
/// Errors compare equal when their codes are equal, so tests can write
/// `#expect(throws: MockServerError.timeout) { … }` without matching the message text.
public struct MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The kind of failure. New codes may be added; switch with a `default`.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        private enum Base: String, Sendable {
            case timeout, bindFailed, invalidCertificate, invalidKey, tlsSetupFailed, shutDown
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// A wait (``MockServer/takeRequest(timeout:)``, ``MockServer/waitForConnections(_:timeout:)``) ran past its deadline.
        public static let timeout = Code(.timeout)
        /// The listening socket could not be created, bound or listened on.
        public static let bindFailed = Code(.bindFailed)
        /// A certificate chain file could not be read or holds no PEM certificate.
        public static let invalidCertificate = Code(.invalidCertificate)
        /// A private key file could not be read or does not match the leaf certificate.
        public static let invalidKey = Code(.invalidKey)
        /// OpenSSL refused some other part of the TLS configuration, or it asks for what TLS cannot do (post-handshake
        /// client authentication below TLS 1.3 or over HTTP/2).
        public static let tlsSetupFailed = Code(.tlsSetupFailed)
        /// The server was shut down while a caller was waiting.
        public static let shutDown = Code(.shutDown)

        /// The code's stable name, safe as a metrics label.
        public var description: String { base.rawValue }
    }

    /// What went wrong, for comparisons.
    public let code: Code
    /// Why it went wrong, with evidence (a path, an OpenSSL reason, an errno text).
    public let message: String

    /// Creates an error; the server creates these, tests usually only compare them.
    public init(code: Code, message: String) {
        self.code = code
        self.message = message
    }

    /// A timeout, for comparisons: `error as? MockServerError == .timeout`.
    public static let timeout = MockServerError(code: .timeout, message: "timed out")
    /// A shutdown, for comparisons.
    public static let shutDown = MockServerError(code: .shutDown, message: "server shut down")

    /// The code and the message.
    public var description: String { "MockServerError.\(code): \(message)" }

    /// Compares codes only: the message is evidence, not identity.
    public static func == (lhs: MockServerError, rhs: MockServerError) -> Bool { lhs.code == rhs.code }
}
