import Dispatch
import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// Runs fetches of ``URLSessionResource``s over a ``FetchTransport``: one ``FetchStateMachine`` per fetch,
    /// driven from the threads its events arrive on.
    ///
    /// A stack built on it is a few lines:
    ///
    /// ```swift
    /// final class MyStack: NetworkStack {
    ///     typealias Resource = Network.URLSessionResource
    ///     typealias Remote = Data
    ///     typealias Request = URLRequest
    ///     typealias Response = URLResponse
    ///     typealias FetchError = Network.URLSessionError
    ///
    ///     private let engine: Network.FetchEngine<MyTransport>
    ///     init(transport: MyTransport) { engine = .init(transport: transport, retryQueue: .global()) }
    ///     deinit { engine.cancelAll() }
    ///
    ///     func fetch(resource: Resource, completion: @escaping FetchCompletionClosure) -> Cancelable {
    ///         engine.fetch(resource: resource, completion: completion)
    ///     }
    /// }
    /// ```
    ///
    /// Every fetch completes exactly once: with its result, with ``URLSessionError/cancelled`` when its
    /// `Cancelable` is cancelled at any stage, or when ``cancelAll()`` runs.
    public final class FetchEngine<Transport: FetchTransport>: Sendable {

        /// What a fetch's completion receives.
        public typealias Completion = FetchCompletion

        private struct Registry {
            var fetches: [ObjectIdentifier: FetchRecord] = [:]
            var invalidated = false
            var drained: [CheckedContinuation<Void, Never>] = []
            var transportStopped = false
        }

        /// The transport the fetches run on.
        public let transport: Transport
        private let retryQueue: DispatchQueue
        private let callbackQueue: DispatchQueue?
        private let observer: (any FetchObserver)?
        private let registry = Locked(Registry())
        private let taskIdentifiers = Atomic<Int>(0)

        /// Creates an engine.
        ///
        /// - Parameters:
        ///   - transport: sends the requests.
        ///   - retryQueue: where delayed retries wait.
        ///   - callbackQueue: where completions run; `nil` lets the transport decide (``FetchTransport/deliver(_:)``).
        ///   - observer: told when fetches start, retry and complete (for metrics); `nil` for none.
        public init(
            transport: Transport, retryQueue: DispatchQueue, callbackQueue: DispatchQueue? = nil, observer: (any FetchObserver)? = nil
        ) {
            self.transport = transport
            self.retryQueue = retryQueue
            self.callbackQueue = callbackQueue
            self.observer = observer
        }

        // MARK: Life cycle

        /// Starts a fetch; the returned `Cancelable` completes it with ``URLSessionError/cancelled``.
        public func fetch(resource: URLSessionResource, completion: @escaping Completion) -> Cancelable {
            // The clock is read only for an observer: without one a fetch costs what it did before.
            let record = FetchRecord(resource: resource, completion: completion, started: observer.map { _ in .now })
            observer?.fetchStarted()
            let registered = registry.withLock { registry -> Bool in
                guard !registry.invalidated else { return false }
                registry.fetches[ObjectIdentifier(record)] = record
                return true
            }
            let handle = FetchHandle(record: record) { [weak self] record in self?.cancel(record) }
            guard registered else {
                apply({ $0.cancel() }, to: record)
                return handle
            }
            apply({ $0.start() }, to: record)
            return handle
        }

        /// Refuses new fetches (they complete with ``URLSessionError/cancelled``), lets those in flight finish
        /// (retries included), then stops the transport. Returns at once.
        public func invalidate() {
            let idle = registry.withLock { registry -> Bool in
                registry.invalidated = true
                return registry.fetches.isEmpty
            }
            if idle { stopTransport() }
        }

        /// Refuses new fetches, waits until those in flight have completed (retries included), then stops the
        /// transport.
        public func shutdown() async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let done = registry.withLock { registry -> Bool in
                    registry.invalidated = true
                    guard !registry.fetches.isEmpty else { return true }
                    registry.drained.append(continuation)
                    return false
                }
                if done {
                    stopTransport()
                    continuation.resume()
                }
            }
        }

        /// Completes every fetch in flight with ``URLSessionError/cancelled``, refuses new ones, and stops the
        /// transport.
        public func cancelAll() {
            let records = registry.withLock { registry -> [FetchRecord] in
                registry.invalidated = true
                return Array(registry.fetches.values)
            }
            for record in records { apply({ $0.cancel() }, to: record) }
            // The last completion stops the transport; with nothing in flight, nothing else will.
            if records.isEmpty { stopTransport() }
        }

        private func cancel(_ record: FetchRecord) {
            apply({ $0.cancel() }, to: record)
        }

        private func stopTransport() {
            let first = registry.withLock { registry -> Bool in
                defer { registry.transportStopped = true }
                return !registry.transportStopped
            }
            if first { transport.shutDown() }
        }

        // MARK: Driving the machine

        /// Feeds one event to a fetch's machine and carries out what it answers.
        @discardableResult
        private func apply(_ event: (inout FetchStateMachine) -> FetchStateMachine.Action, to record: FetchRecord) -> Cancelable? {
            perform(record.step(event), for: record)
        }

        /// Carries out an action; returns the cancelable of a transfer it started.
        private func perform(_ action: FetchStateMachine.Action, for record: FetchRecord) -> Cancelable? {
            switch action {
            case .makeRequest(let resource):
                let making = resource.makeRequest { [self] result in
                    let identifier = taskIdentifiers.wrappingAdd(1, ordering: .relaxed).newValue
                    return apply({ $0.requestMade(result, taskIdentifier: identifier) }, to: record) ?? DummyCancelable()
                }
                record.track(making)
                return nil

            case .send(let attempt):
                attempt.interceptScheduled()
                let transfer = transport.send(attempt.request) { [self] outcome in
                    apply({ $0.transportCompleted(outcome) }, to: record)
                }
                record.track(transfer)
                return transfer

            case .decodeAPIError(let body, let response, let decoding):
                // Outside the record's lock: the decoding is the user's code.
                let apiError = decoding.decode(body, response)
                return apply({ $0.apiErrorDecoded(apiError) }, to: record)

            case .askInterceptors(let failed):
                let answer = failed.retryAction()
                let next = record.step { $0.interceptorsAnswered(answer) }
                // The machine's answer, not the interceptors', says whether a retry comes: a fetch cancelled
                // meanwhile answers `.none`.
                switch next {
                case .makeRequest, .waitForRetry: observer?.retryScheduled(after: failed.error)
                default: break
                }
                return perform(next, for: record)

            case .succeed(let succeeded):
                succeeded.interceptSucceeded()
                complete(record, with: .success(succeeded.value))
                return nil

            case .waitForRetry(let delay):
                // The timer holds the fetch weakly: the registry keeps it alive while it waits, and a cancelled
                // fetch must not stay alive until its timer's deadline.
                let timer = DispatchWorkItem { [weak self, weak record] in
                    guard let self, let record else { return }
                    apply({ $0.retryTimerFired() }, to: record)
                }
                record.track(RetryTimer(timer))
                retryQueue.asyncAfter(deadline: .now() + delay, execute: timer)
                return nil

            case .complete(let result):
                complete(record, with: result)
                return nil

            case .none:
                return nil
            }
        }

        private func complete(_ record: FetchRecord, with result: Result<Value<Data, URLResponse>, URLSessionError>) {
            let (completion, inFlight) = record.takeCompletion()
            if let observer, completion != nil, let started = record.started {
                observer.fetchCompleted(result, duration: .now - started)
            }
            // After a cancel, whatever still runs is stopped; its own completion then finds the machine finished.
            // (Otherwise all of it has ended: cancelling it again would only cost the transport a wake-up.)
            if case .failure(.cancelled) = result { inFlight.forEach { $0.cancel() } }
            if let completion {
                if let callbackQueue {
                    callbackQueue.async { completion(result) }
                } else {
                    transport.deliver { completion(result) }
                }
            }
            let (drained, continuations) = registry.withLock { registry -> (Bool, [CheckedContinuation<Void, Never>]) in
                registry.fetches.removeValue(forKey: ObjectIdentifier(record))
                guard registry.invalidated, registry.fetches.isEmpty else { return (false, []) }
                defer { registry.drained = [] }
                return (true, registry.drained)
            }
            // The transport delivers a completion it was handed before it stops.
            if drained { stopTransport() }
            continuations.forEach { $0.resume() }
        }
    }
}
