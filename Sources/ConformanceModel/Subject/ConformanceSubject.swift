import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// An implementation under test: anything that can build a `NetworkStack` for
/// `Network/URLSessionResource` whose errors are `Network/URLSessionError`.
///
/// The runner asks for a fresh stack per case and releases it afterwards, so a subject need keep no state.
///
/// ```swift
/// struct MySubject: ConformanceSubject {
///     var name: String { "my-stack" }
///     var unsupportedFeatures: [SubjectFeature: String] { [.serverTrustChallenge: "no TLS hook"] }
///     func makeStack(for environment: StackEnvironment) throws -> MyStack { MyStack(retryQueue: environment.retryQueue) }
/// }
/// ```
public protocol ConformanceSubject: Sendable {

    /// The stack type the subject builds.
    associatedtype Stack: NetworkStack
    where
        Stack.Resource == Network.URLSessionResource, Stack.Remote == Data, Stack.Response == URLResponse,
        Stack.FetchError == Network.URLSessionError

    /// A short, stable name for reports (`reference`, `foundation`).
    var name: String { get }

    /// One line about the implementation (what it runs on, its version).
    var summary: String { get }

    /// Features the subject cannot offer, each with the reason shown on the cases it skips.
    var unsupportedFeatures: [SubjectFeature: String] { get }

    /// The libraries the stack runs on and their versions (`["OpenSSL": "3.0.19", "libcurl": "7.88.1"]`), for
    /// the report's header. None by default.
    var libraryVersions: [String: String] { get }

    /// Builds a stack configured as the case asks.
    ///
    /// - Throws: ``SubjectUnsupported`` when this environment cannot be honoured (the case is SKIP);
    ///   anything else makes the case ERROR.
    func makeStack(for environment: StackEnvironment) throws -> Stack

    /// Called once the runner is done with a stack (also after a HANG); release sessions here.
    func tearDown(_ stack: Stack)
}

extension ConformanceSubject {

    public var summary: String { name }

    public var unsupportedFeatures: [SubjectFeature: String] { [:] }

    public var libraryVersions: [String: String] { [:] }

    public func tearDown(_ stack: Stack) {}
}
