import Foundation
import Synchronization
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a fetch's completion receives.
public typealias FetchCompletion = @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void

/// One fetch of a ``Network/FetchEngine``: its machine, its completion until delivered, and what it has in
/// flight. Nothing it started keeps it alive: the engine's registry does, until it completes.
final class FetchRecord: Sendable {

    private struct State {
        var machine: Network.FetchStateMachine
        var completion: FetchCompletion?
        var inFlight: [any Cancelable] = []
    }

    private let state: Locked<State>
    /// When the fetch started, if the engine has an observer to tell its duration.
    let started: ContinuousClock.Instant?

    init(resource: Network.URLSessionResource, completion: @escaping FetchCompletion, started: ContinuousClock.Instant? = nil) {
        state = Locked(State(machine: Network.FetchStateMachine(resource: resource), completion: completion))
        self.started = started
    }

    /// Feeds one event to the machine, under the record's lock; the action is carried out outside it.
    func step(_ event: (inout Network.FetchStateMachine) -> Network.FetchStateMachine.Action) -> Network.FetchStateMachine.Action {
        state.withLock { state in
            let action = event(&state.machine)
            if case .makeRequest = action { state.inFlight = [] }  // a new attempt: the previous one has ended
            return action
        }
    }

    /// Keeps what the fetch started, to stop it on cancel; stops it at once if the fetch already completed.
    func track(_ cancelable: any Cancelable) {
        let kept = state.withLock { state -> Bool in
            guard state.completion != nil else { return false }
            state.inFlight.append(cancelable)
            return true
        }
        if !kept { cancelable.cancel() }
    }

    /// Takes the completion (once) and what was in flight, so that nothing the fetch started outlives it.
    func takeCompletion() -> (FetchCompletion?, [any Cancelable]) {
        state.withLock { state in
            defer { state.completion = nil; state.inFlight = [] }
            return (state.completion, state.inFlight)
        }
    }
}

/// The `Cancelable` a fetch returns: cancelling completes the fetch with `.cancelled` at once, whatever stage
/// it is in.
final class FetchHandle: Cancelable {
    private let record: FetchRecord
    private let onCancel: @Sendable (FetchRecord) -> Void
    private let cancelled = Atomic<Bool>(false)

    init(record: FetchRecord, onCancel: @escaping @Sendable (FetchRecord) -> Void) {
        self.record = record
        self.onCancel = onCancel
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        guard !cancelled.exchange(true, ordering: .acquiringAndReleasing) else { return }
        onCancel(record)
    }
}

/// A retry waiting for its delay.
final class RetryTimer: Cancelable, @unchecked Sendable {  // DispatchWorkItem is thread-safe
    private let workItem: DispatchWorkItem

    init(_ workItem: DispatchWorkItem) { self.workItem = workItem }

    var isCancelled: Bool { workItem.isCancelled }
    func cancel() { workItem.cancel() }
}
