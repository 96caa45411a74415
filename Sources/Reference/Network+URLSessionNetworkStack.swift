import Dispatch
import Foundation
import Logging
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// The HTTP network stack, on libcurl and OpenSSL.
    ///
    /// It behaves as Alicerce's `URLSessionNetworkStack` does, with the project's decisions: every fetch
    /// completes exactly once (also when cancelled at any stage, or when the stack is released mid-flight,
    /// both giving `URLSessionError/cancelled`); a 2xx response other than 204/205 with no body is
    /// `URLSessionError/noData(_:_:)`; transport failures carry specific `URLError` codes.
    ///
    /// Unlike on Apple platforms there is no `URLSession` to inject: the stack owns one transport thread
    /// with a libcurl multi handle (so connections are reused across fetches) and is ready once created.
    ///
    /// ```swift
    /// let network = Network.URLSessionNetworkStack(
    ///     authenticationChallengeHandler: serverTrustEvaluator,
    ///     retryQueue: DispatchQueue(label: "network.retry-queue"))
    /// ```
    ///
    /// Threads: request making and the make-request interceptors run on the thread that calls `fetch` (the
    /// retry queue for delayed retries, the transport thread for immediate ones); the scheduled, successful
    /// and failed hooks, error decoding and completions run on the transport thread, unless
    /// ``Configuration/callbackQueue`` names a queue for completions.
    ///
    /// - Warning: on the transport thread, code must not block: every fetch of the stack waits for it.
    public final class URLSessionNetworkStack: StoppableNetworkStack {

        public typealias Resource = URLSessionResource
        public typealias Remote = Data
        public typealias Request = URLRequest
        public typealias Response = URLResponse
        public typealias FetchError = URLSessionError

        /// Decides whether servers are trusted, inside the TLS handshake.
        public let authenticationChallengeHandler: (any AuthenticationChallengeHandler)?

        /// Where delayed retries wait.
        public let retryQueue: DispatchQueue

        /// The stack's configuration.
        public let configuration: Configuration

        private let engine: Network.FetchEngine<CurlTransport>

        /// Creates a stack and its transport thread.
        ///
        /// - Parameters:
        ///   - configuration: trust roots, verification time, callback queue, logger, metrics.
        ///   - authenticationChallengeHandler: decides about each server inside the TLS handshake; `nil`
        ///     applies standard validation.
        ///   - retryQueue: where delayed retries are scheduled.
        public init(
            configuration: Configuration = Configuration(),
            authenticationChallengeHandler: (any AuthenticationChallengeHandler)? = nil,
            retryQueue: DispatchQueue
        ) {
            self.configuration = configuration
            self.authenticationChallengeHandler = authenticationChallengeHandler
            self.retryQueue = retryQueue
            // Made once per stack, not per fetch; `nil` when metrics would go nowhere, so fetches skip them.
            let metrics = StackMetrics(configuration.metrics)
            engine = Network.FetchEngine(
                transport: CurlTransport(configuration: configuration, handler: authenticationChallengeHandler, metrics: metrics),
                retryQueue: retryQueue, callbackQueue: configuration.callbackQueue, observer: metrics)
        }

        deinit {
            engine.cancelAll()
        }

        @discardableResult
        public func fetch(resource: URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
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
    }
}
