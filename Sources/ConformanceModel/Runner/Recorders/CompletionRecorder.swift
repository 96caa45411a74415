import Dispatch
import NetworkCore

/// How the case's fetches completed: the case's own outcomes, those of the fetches beside it (a probe, a concurrent
/// fetch), and the completions after a fetch's first, which the completion guard counts. Each completion is
/// signalled to the runner, which waits for them.
final class CompletionRecorder: Sendable {
    private struct State {
        var outcomes: [Outcome] = []
        var otherOutcomes: [(path: String, outcome: Outcome)] = []
        var extraCompletions = 0
        var mostCompletionsOfOneFetch = 0
    }

    private let state = Locked(State())
    private let completionSignal = DispatchSemaphore(value: 0)

    func complete(_ outcome: Outcome) {
        state.withLock { $0.outcomes.append(outcome) }
        completionSignal.signal()
    }

    /// Records the outcome of a fetch besides the case's own; it signals the same completion the runner waits on,
    /// but is not the case's outcome.
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

    var outcomes: [Outcome] { state.withLock { $0.outcomes } }
    var otherOutcomes: [(path: String, outcome: Outcome)] { state.withLock { $0.otherOutcomes } }

    /// How many times fetches completed after their first completion.
    var extraCompletions: Int { state.withLock { $0.extraCompletions } }

    /// The most completions any one fetch had (0 or 1 when every fetch behaved).
    var mostCompletionsOfOneFetch: Int { state.withLock { $0.mostCompletionsOfOneFetch } }

    /// Waits for one more completion until the deadline; false on timeout.
    func waitForCompletion(until deadline: DispatchTime) -> Bool {
        completionSignal.wait(timeout: deadline) == .success
    }
}
