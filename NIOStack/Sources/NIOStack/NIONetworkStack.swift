import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@_exported import NetworkCore

/// This project's fetch flow (interceptors, retries, `URLSessionError`s, cancellation, exactly-once completion) on
/// SwiftNIO: NetworkCore's `Network.FetchEngine` over ``NIOTransport``.
///
/// Trust is decided inside the TLS handshake, before any request byte is sent: swift-certificates' `Verifier` builds
/// and checks the path to ``Configuration/trustRoots``, then the handler (a Pinning `ServerTrustEvaluator`, say)
/// answers a `ServerTrustChallenge`. A refusal fails the fetch with `URLError(.serverCertificateUntrusted)` whose
/// `serverTrustFailure` says why. HTTP/2 when the server selects it in ALPN (``Configuration/httpVersions``), one
/// shared connection per host with a stream per fetch, HTTP/1.1 keep-alive connections otherwise; a reused connection
/// is judged again by the handler before each request or stream it carries. No client certificates.
public final class NIONetworkStack: StoppableNetworkStack {
    public typealias Resource = Network.URLSessionResource
    public typealias Remote = Data
    public typealias Request = URLRequest
    public typealias Response = URLResponse
    public typealias FetchError = Network.URLSessionError

    private let engine: Network.FetchEngine<NIOTransport>

    /// Creates a stack with its own event loop thread.
    ///
    /// - Parameters:
    ///   - configuration: trust roots, verification time, limits.
    ///   - authenticationChallengeHandler: decides about each server; `nil` for standard validation alone.
    ///   - retryQueue: where delayed retries wait.
    public init(
        configuration: Configuration = Configuration(), authenticationChallengeHandler: (any AuthenticationChallengeHandler)? = nil,
        retryQueue: DispatchQueue
    ) {
        let transport = NIOTransport(configuration: configuration, authenticationChallengeHandler: authenticationChallengeHandler)
        engine = Network.FetchEngine(transport: transport, retryQueue: retryQueue)
    }

    deinit {
        engine.cancelAll()
    }

    @discardableResult
    public func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        engine.fetch(resource: resource, completion: completion)
    }

    public func shutdown() async {
        await engine.shutdown()
    }

    public func finishFetchesAndInvalidateSession() {
        engine.invalidate()
    }

    public func invalidateAndCancel() {
        engine.cancelAll()
    }

    /// Cancels every fetch in flight (each completes with `.cancelled`) and stops the event loop.
    @available(*, deprecated, renamed: "invalidateAndCancel()", message: "every stack of the package stops the same ways")
    public func shutDown() {
        invalidateAndCancel()
    }
}
