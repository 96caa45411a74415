import Dispatch
import Foundation
import Logging
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The fetch flow of ``Network/URLSessionNetworkStack`` (alicerce-behaviour §1, with the project's
/// decisions): request making, interceptors, transfer, completion branches, retries, cancellation.
///
/// It outlives the public stack while fetches are in flight, so that releasing the stack can still complete
/// every one of them.
final class FetchEngine: Sendable {

    private struct Registry {
        var fetches: [ObjectIdentifier: FetchState] = [:]
        var invalidated = false
    }

    private let loop = CurlMultiLoop()
    private let trust: TLSTrustContext
    private let configuration: Network.URLSessionNetworkStack.Configuration
    private let retryQueue: DispatchQueue
    private let registry = Mutex(Registry())
    private let taskIdentifiers = Atomic<Int>(0)
    private var logger: Logger { configuration.logger }

    init(configuration: Network.URLSessionNetworkStack.Configuration, handler: (any AuthenticationChallengeHandler)?, retryQueue: DispatchQueue) {
        self.configuration = configuration
        self.retryQueue = retryQueue
        trust = TLSTrustContext(
            roots: configuration.trustRoots, handler: handler,
            verificationTime: configuration.verificationTime, logger: configuration.logger)
    }

    // MARK: Life cycle

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchState.Completion) -> Cancelable {
        let state = FetchState(completion: completion, deliver: deliverer())
        let handle = FetchHandle(state: state) { [self] state in cancel(state) }
        let registered = registry.withLock { registry -> Bool in
            guard !registry.invalidated else { return false }
            registry.fetches[ObjectIdentifier(state)] = state
            return true
        }
        guard registered else {
            state.finish(.failure(.cancelled))
            return handle
        }
        attempt(resource, state: state)
        return handle
    }

    /// Refuses new fetches (they complete with `.cancelled`), lets those in flight finish, then stops the
    /// transport thread.
    func invalidate() {
        let idle = registry.withLock { registry -> Bool in
            registry.invalidated = true
            return registry.fetches.isEmpty
        }
        if idle { loop.stop() }
    }

    /// Completes every fetch in flight with `.cancelled`, refuses new ones, and stops the transport thread.
    func shutDown() {
        let fetches = registry.withLock { registry -> [FetchState] in
            registry.invalidated = true
            defer { registry.fetches = [:] }
            return Array(registry.fetches.values)
        }
        for state in fetches {
            // Finish first: cancelling the transfer first lets the transport thread race in with url(cancelled).
            state.finish(.failure(.cancelled))
            state.bag.cancel()
        }
        loop.stop()
    }

    private func cancel(_ state: FetchState) {
        // Finish first: cancelling the transfer first lets the transport thread race in with url(cancelled).
        if state.finish(.failure(.cancelled)) {
            logger.debug("fetch cancelled")
        }
        state.bag.cancel()
        unregister(state)
    }

    private func complete(_ state: FetchState, with result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) {
        state.finish(result)
        unregister(state)
    }

    private func unregister(_ state: FetchState) {
        let drained = registry.withLock { registry -> Bool in
            registry.fetches.removeValue(forKey: ObjectIdentifier(state))
            return registry.invalidated && registry.fetches.isEmpty
        }
        // After `invalidate()`, the last fetch to finish stops the transport thread; its completion has already
        // been queued there, and the loop runs queued jobs before it exits.
        if drained { loop.stop() }
    }

    /// Where completions run: the configured queue, else the transport thread (inline when already there).
    private func deliverer() -> @Sendable (@escaping @Sendable () -> Void) -> Void {
        if let queue = configuration.callbackQueue {
            return { job in queue.async(execute: job) }
        }
        let loop = self.loop
        return { job in
            if loop.isOnLoopThread { job() } else { loop.execute(job) }
        }
    }

    // MARK: Attempts

    private func attempt(_ resource: Network.URLSessionResource, state: FetchState) {
        guard !state.isFinished else { return }
        state.bag += resource.makeRequest { [self] result in
            switch result {
            case .failure(let error):
                complete(state, with: .failure(.noRequest(error)))
                return DummyCancelable()
            case .success(let request):
                return schedule(request, resource: resource, state: state)
            }
        }
    }

    private func schedule(_ request: URLRequest, resource: Network.URLSessionResource, state: FetchState) -> Cancelable {
        guard !state.isFinished else { return DummyCancelable() }
        let taskIdentifier = taskIdentifiers.wrappingAdd(1, ordering: .relaxed).newValue
        for interceptor in resource.interceptors {
            interceptor.interceptScheduledTask(withIdentifier: taskIdentifier, request: request, retryState: resource.retryState)
        }
        let started = ContinuousClock.now
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http" else {
            let failure = TransportFailure(library: "Reference", code: 0, message: "unsupported URL: \(request.url?.absoluteString ?? "none")")
            loop.execute { [self] in
                handle(.failure(URLError(.unsupportedURL, failure: failure, url: request.url)), request: request, resource: resource, state: state, taskIdentifier: taskIdentifier, started: started)
            }
            return DummyCancelable()
        }
        let transfer = CurlTransfer(request: request, url: url, trust: trust, configuration: configuration, loop: loop) { [self] result in
            handle(result, request: request, resource: resource, state: state, taskIdentifier: taskIdentifier, started: started)
        }
        loop.submit(transfer)
        return WeakCancelable(transfer)
    }

    // MARK: Outcomes (transport thread)

    private func handle(
        _ result: CurlTransfer.Outcome,
        request: URLRequest, resource: Network.URLSessionResource, state: FetchState,
        taskIdentifier: Int, started: ContinuousClock.Instant
    ) {
        guard !state.isFinished else { return }
        let method = request.httpMethod ?? "GET"
        let elapsed = ContinuousClock.now - started
        switch result {
        case .failure(let error):
            logger.debug("request failed", metadata: ["method": "\(method)", "url": "\(request.url?.absoluteString ?? "")", "error": "\(error.code.rawValue)", "elapsed": "\(elapsed)"])
            failed(.url(error), data: nil, response: nil, request: request, resource: resource, state: state, taskIdentifier: taskIdentifier)

        case .interimOnly(let response):
            // No HTTP response answers the request: like Alicerce's missing response, this skips the
            // interceptors and is never retried.
            logger.debug("no final response", metadata: ["method": "\(method)", "url": "\(request.url?.absoluteString ?? "")", "interim status": "\(response.statusCode)"])
            complete(state, with: .failure(.badResponse(response)))

        case .response(let response, let data):
            logger.debug("request completed", metadata: ["method": "\(method)", "url": "\(request.url?.absoluteString ?? "")", "status": "\(response.statusCode)", "elapsed": "\(elapsed)"])
            let status = HTTP.StatusCode(response.statusCode)
            guard case .success = status else {
                let apiError = resource.errorDecoding.decode(data, response)
                failed(.http(status, apiError, response), data: data, response: response, request: request, resource: resource, state: state, taskIdentifier: taskIdentifier)
                return
            }
            // A HEAD response has no body by definition: it is not "unexpectedly empty".
            let payload = data ?? ((resource.allowsEmptyBody(statusCode: response.statusCode) || method == "HEAD") ? Data() : nil)
            guard let payload else {
                failed(.noData(status, response), data: nil, response: response, request: request, resource: resource, state: state, taskIdentifier: taskIdentifier)
                return
            }
            for interceptor in resource.interceptors {
                interceptor.interceptSuccessfulTask(withIdentifier: taskIdentifier, request: request, data: payload, response: response, retryState: resource.retryState)
            }
            complete(state, with: .success(Network.Value(value: payload, response: response)))
        }
    }

    private func failed(
        _ error: Network.URLSessionError, data: Data?, response: URLResponse?,
        request: URLRequest, resource: Network.URLSessionResource, state: FetchState, taskIdentifier: Int
    ) {
        let action = resource.interceptors.reduce(Retry.Action.none) { action, interceptor in
            resource.retryActionPriority(action, interceptor.interceptFailedTask(
                withIdentifier: taskIdentifier, request: request, data: data, response: response,
                error: error, retryState: resource.retryState))
        }
        var next = resource
        next.retryState.errors.append(error)

        switch action {
        case .none:
            complete(state, with: .failure(error))
        case .noRetry(let retryError):
            logger.debug("not retrying", metadata: ["reason": "\(retryError)", "attempts": "\(next.retryState.errors.count)"])
            complete(state, with: .failure(.retry(retryError, next.retryState)))
        case .retry:
            retry(next, after: 0, state: state)
        case .retryAfter(let delay):
            retry(next, after: delay, state: state)
        }
    }

    private func retry(_ resource: Network.URLSessionResource, after delay: Retry.Delay, state: FetchState) {
        guard !state.bag.isCancelled else {
            complete(state, with: .failure(.cancelled))
            return
        }
        logger.debug("retrying", metadata: ["attempt": "\(resource.retryState.attemptCount)", "delay": "\(delay)"])
        guard delay > 0 else {
            attempt(resource, state: state)
            return
        }
        var delayed = resource
        delayed.retryState.totalDelay += delay
        let workItem = DispatchWorkItem { [self] in attempt(delayed, state: state) }
        state.bag += DelayedRetry(workItem)
        retryQueue.asyncAfter(deadline: .now() + delay, execute: workItem)
    }
}
