import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// The shared state of one running case: what its interceptors, handler and completion record, and the
/// signals the runner waits on.
final class CaseContext: Sendable {

    private struct State {
        var hooks: [HookEvent] = []
        var hooksAtCancel: Int?
        var priorityCalls: [String] = []
        var challenges: [ServerTrustChallenge] = []
        var outcomes: [Outcome] = []
        var otherOutcomes: [(path: String, outcome: Outcome)] = []
        var extraCompletions = 0
        var mostCompletionsOfOneFetch = 0
        var fetchCancelable: (any Cancelable)?
        var pendingRequestHandler: Network.BaseRequestMaking<URLRequest>.Handler?
        var reconfigure: (@Sendable () -> Void)?
    }

    private let state = Locked(State())
    private let completionSignal = DispatchSemaphore(value: 0)
    private let failureSignal = DispatchSemaphore(value: 0)
    /// The case's server URL for a path (the request makers need it).
    let url: @Sendable (String) -> URL

    /// The URL of a path on the case's server under another host name.
    let hostURL: @Sendable (_ host: String, _ path: String) -> URL

    init(url: @escaping @Sendable (String) -> URL, hostURL: @escaping @Sendable (String, String) -> URL = { _, path in URL(string: path)! })
    {
        self.url = url
        self.hostURL = hostURL
    }

    // MARK: Recording

    func record(_ event: HookEvent) {
        state.withLock { $0.hooks.append(event) }
        if event.hook == "failure" { failureSignal.signal() }
    }

    /// Marks the moment the runner cancels the case's fetch: the hooks recorded from now on came after it.
    func markCancel() {
        state.withLock { $0.hooksAtCancel = $0.hooksAtCancel ?? $0.hooks.count }
    }

    /// The hooks recorded after ``markCancel()``; `nil` when the runner never cancelled.
    var hooksAfterCancel: [HookEvent]? {
        state.withLock { state in state.hooksAtCancel.map { Array(state.hooks[$0...]) } }
    }

    func recordPriority(_ lhs: Retry.Action, _ rhs: Retry.Action) {
        state.withLock { $0.priorityCalls.append("\(ActionName.describe(lhs))|\(ActionName.describe(rhs))") }
    }

    func record(_ challenge: ServerTrustChallenge) {
        state.withLock { $0.challenges.append(challenge) }
    }

    func complete(_ outcome: Outcome) {
        state.withLock { $0.outcomes.append(outcome) }
        completionSignal.signal()
    }

    /// Records the outcome of a fetch besides the case's own (a probe, a concurrent fetch); it signals the
    /// same completion the runner waits on, but is not the case's outcome.
    func completeOther(_ outcome: Outcome, path: String) {
        state.withLock { $0.otherOutcomes.append((path, outcome)) }
        completionSignal.signal()
    }

    /// Wraps a fetch's completion so that only its first call gets through; later calls are only counted.
    func once<Value: Sendable>(_ completion: @escaping @Sendable (Value) -> Void) -> @Sendable (Value) -> Void {
        let guarded = CompletionGuard(deliver: completion) { [weak self] calls in
            self?.state.withLock {
                $0.extraCompletions += 1
                $0.mostCompletionsOfOneFetch = max($0.mostCompletionsOfOneFetch, calls)
            }
        }
        return { guarded($0) }
    }

    /// How many times fetches completed after their first completion.
    var extraCompletions: Int { state.withLock { $0.extraCompletions } }

    /// The most completions any one fetch had (0 or 1 when every fetch behaved).
    var mostCompletionsOfOneFetch: Int { state.withLock { $0.mostCompletionsOfOneFetch } }

    var hooks: [HookEvent] { state.withLock { $0.hooks } }
    var priorityCalls: [String] { state.withLock { $0.priorityCalls } }
    var challenges: [ServerTrustChallenge] { state.withLock { $0.challenges } }
    var outcomes: [Outcome] { state.withLock { $0.outcomes } }
    var otherOutcomes: [(path: String, outcome: Outcome)] { state.withLock { $0.otherOutcomes } }

    // MARK: The fetch's cancelable and the pending request maker

    var fetchCancelable: (any Cancelable)? {
        get { state.withLock { $0.fetchCancelable } }
        set { state.withLock { $0.fetchCancelable = newValue } }
    }

    func keepPendingHandler(_ handler: @escaping Network.BaseRequestMaking<URLRequest>.Handler) {
        state.withLock { $0.pendingRequestHandler = handler }
    }

    /// Answers a pending request maker late (after cancellation): nothing may be sent.
    func answerPendingHandler() {
        let handler = state.withLock { $0.pendingRequestHandler }
        _ = handler?(.success(URLRequest(url: url("/late"))))
    }

    /// The change ``CaseAction/fetchReconfigureFetch`` applies to the case's handler, if it has one.
    var reconfigure: (@Sendable () -> Void)? {
        get { state.withLock { $0.reconfigure } }
        set { state.withLock { $0.reconfigure = newValue } }
    }

    /// Drops what the case kept of the fetch (its cancelable, a pending request maker, the handler's change).
    ///
    /// They lead back to the stack, and the stack's challenge handler and interceptors lead back to this
    /// context: kept past the case, that cycle would leak every stack whose case used them.
    func endCase() {
        state.withLock {
            $0.fetchCancelable = nil
            $0.pendingRequestHandler = nil
            $0.reconfigure = nil
        }
    }

    // MARK: Waiting

    /// Waits for one more completion until the deadline; false on timeout.
    func waitForCompletion(until deadline: DispatchTime) -> Bool {
        completionSignal.wait(timeout: deadline) == .success
    }

    /// Waits for one failed-hook call until the deadline; false on timeout.
    func waitForFailureHook(until deadline: DispatchTime) -> Bool {
        failureSignal.wait(timeout: deadline) == .success
    }
}
