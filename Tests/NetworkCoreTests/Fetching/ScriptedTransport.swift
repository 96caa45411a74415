import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Synchronization

/// A transport whose exchanges the test ends by hand: it records each request and keeps its completion.
final class ScriptedTransport: FetchTransport {

    private struct State {
        var pending: [(Exchange, @Sendable (Network.TransportOutcome) -> Void)] = []
        var sent: [URLRequest] = []
        var cancelled = 0
        var shutDowns = 0
    }

    private let state = Locked(State())

    var sent: [URLRequest] { state.withLock { $0.sent } }
    var pendingCount: Int { state.withLock { $0.pending.count } }
    var cancelledCount: Int { state.withLock { $0.cancelled } }
    var shutDownCount: Int { state.withLock { $0.shutDowns } }

    func send(_ request: URLRequest, completion: @escaping @Sendable (Network.TransportOutcome) -> Void) -> Cancelable {
        let exchange = Exchange()
        state.withLock {
            $0.sent.append(request)
            $0.pending.append((exchange, completion))
        }
        exchange.onCancel = { [weak self] in self?.countCancel() }
        return exchange
    }

    /// A cancelled exchange stays pending, so that a test can still deliver a late outcome.
    private func countCancel() {
        state.withLock { $0.cancelled += 1 }
    }

    /// Ends the oldest pending exchange with `outcome`.
    func complete(with outcome: Network.TransportOutcome) {
        let next = state.withLock { state in state.pending.isEmpty ? nil : state.pending.removeFirst() }
        next?.1(outcome)
    }

    /// Lets every pending completion go, as a real transport does when it stops (they hold the engine).
    func shutDown() {
        state.withLock {
            $0.shutDowns += 1
            $0.pending = []
        }
    }

    private final class Exchange: Cancelable, @unchecked Sendable {  // onCancel is set once, before the exchange escapes
        var onCancel: (@Sendable () -> Void)?
        private let cancelled = Atomic<Bool>(false)
        var isCancelled: Bool { cancelled.load(ordering: .relaxed) }
        func cancel() { if !cancelled.exchange(true, ordering: .relaxed) { onCancel?() } }
    }
}

/// Collects a fetch's completions, to check there is exactly one.
final class Completions: Sendable {
    private let results = Locked<[Result<Network.Value<Data, URLResponse>, Network.URLSessionError>]>([])

    var count: Int { results.withLock { $0.count } }
    var first: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>? { results.withLock { $0.first } }

    func record(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) {
        results.withLock { $0.append(result) }
    }
}

/// An interceptor that answers every failure with one action, so tests can hold it weakly.
final class FixedRetryInterceptor: URLSessionResourceInterceptor {
    let action: Retry.Action
    init(_ action: Retry.Action) { self.action = action }

    func interceptFailedTask(
        withIdentifier taskIdentifier: Int, request: URLRequest, data: Data?, response: URLResponse?,
        error: Network.URLSessionError, retryState: Retry.State
    ) -> Retry.Action {
        action
    }
}
