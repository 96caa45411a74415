import Foundation
import NetworkCore
import TestTraits

/// Records values delivered from other threads, and waits for them with a deadline.
final class Recorder<Value: Sendable>: Sendable {
    private struct State {
        var values: [Value] = []
        var taken = 0
    }
    private let state = Locked(State())
    private let signal = DispatchSemaphore(value: 0)

    func record(_ value: Value) {
        state.withLock { $0.values.append(value) }
        signal.signal()
    }

    var all: [Value] { state.withLock { $0.values } }

    /// Waits for the next value not yet taken, in the order they were recorded; `nil` after the timeout (times
    /// ``TestTimeScale/factor``: a sanitized run's completions come late, not never).
    func next(timeout: TimeInterval = 15) -> Value? {
        guard signal.wait(timeout: .now() + timeout * Double(TestTimeScale.factor)) == .success else { return nil }
        return state.withLock { state in
            defer { state.taken += 1 }
            return state.values[state.taken]
        }
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { return error } else { return nil } }
    var success: Success? { if case .success(let value) = self { return value } else { return nil } }
}
