import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One fetch, across all its attempts: guarantees its completion runs exactly once, whatever races between
/// the network, retries, cancellation and the stack going away.
final class FetchState: Sendable {

    typealias Completion = @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void

    /// Everything the fetch started: request makers, transfers, delayed retries.
    let bag = CancelableBag()
    private let completion: Mutex<Completion?>
    private let deliver: @Sendable (@escaping @Sendable () -> Void) -> Void

    /// - Parameter deliver: runs the completion where the stack's configuration says.
    init(completion: @escaping Completion, deliver: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        self.completion = Mutex(completion)
        self.deliver = deliver
    }

    var isFinished: Bool { completion.withLock { $0 == nil } }

    /// Completes the fetch, unless it already completed; returns whether this call completed it.
    @discardableResult
    func finish(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Bool {
        guard let completion = completion.withLock({ stored -> Completion? in defer { stored = nil }; return stored }) else {
            return false
        }
        deliver { completion(result) }
        return true
    }
}

/// The cancelable a fetch returns: cancelling stops everything the fetch started and completes it with
/// `.cancelled`, at once, whatever stage it is in.
final class FetchHandle: Cancelable {
    private let state: FetchState
    private let onCancel: @Sendable (FetchState) -> Void

    init(state: FetchState, onCancel: @escaping @Sendable (FetchState) -> Void) {
        self.state = state
        self.onCancel = onCancel
    }

    var isCancelled: Bool { state.bag.isCancelled }

    func cancel() {
        guard !state.bag.isCancelled else { return }
        onCancel(state)
    }
}

/// A retry waiting for its delay to pass.
final class DelayedRetry: Cancelable, @unchecked Sendable {  // DispatchWorkItem is thread-safe
    let workItem: DispatchWorkItem

    init(_ workItem: DispatchWorkItem) { self.workItem = workItem }

    var isCancelled: Bool { workItem.isCancelled }
    func cancel() { workItem.cancel() }
}
