import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Synchronization

/// One fetch across its attempts: its completion runs exactly once.
final class FoundationFetch: Sendable {
    typealias Completion = @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void

    let bag = CancelableBag()
    private let completion: Mutex<Completion?>

    init(completion: @escaping Completion) {
        self.completion = Mutex(completion)
    }

    var isFinished: Bool { completion.withLock { $0 == nil } }

    /// Completes the fetch unless it already completed; returns whether this call did.
    @discardableResult
    func finish(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Bool {
        guard let completion = completion.withLock({ stored -> Completion? in defer { stored = nil }; return stored }) else { return false }
        completion(result)
        return true
    }
}

/// The cancelable a fetch returns: cancelling completes the fetch with `.cancelled` at once.
final class FoundationFetchHandle: Cancelable {
    private let fetch: FoundationFetch
    private let onCancel: @Sendable (FoundationFetch) -> Void

    init(fetch: FoundationFetch, onCancel: @escaping @Sendable (FoundationFetch) -> Void) {
        self.fetch = fetch
        self.onCancel = onCancel
    }

    var isCancelled: Bool { fetch.bag.isCancelled }

    func cancel() {
        guard !fetch.bag.isCancelled else { return }
        onCancel(fetch)
    }
}

/// A data task, cancelable through the fetch's bag.
final class DataTaskCancelable: Cancelable, @unchecked Sendable {  // URLSessionTask is thread-safe
    private let task: URLSessionDataTask
    private let cancelled = Atomic<Bool>(false)

    init(_ task: URLSessionDataTask) { self.task = task }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        task.cancel()
    }
}

/// A delayed retry, cancelable through the fetch's bag.
final class DelayedAttempt: Cancelable, @unchecked Sendable {  // DispatchWorkItem is thread-safe
    let workItem: DispatchWorkItem

    init(_ workItem: DispatchWorkItem) { self.workItem = workItem }

    var isCancelled: Bool { workItem.isCancelled }
    func cancel() { workItem.cancel() }
}
