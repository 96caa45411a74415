import Foundation
import Synchronization

/// Records values delivered from other threads, and waits for them with a deadline.
final class Recorder<Value: Sendable>: Sendable {
    private let values = Mutex<[Value]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record(_ value: Value) {
        values.withLock { $0.append(value) }
        signal.signal()
    }

    var all: [Value] { values.withLock { $0 } }

    /// Waits for one more value; `nil` after the timeout.
    func next(timeout: TimeInterval = 15) -> Value? {
        guard signal.wait(timeout: .now() + timeout) == .success else { return nil }
        return values.withLock { $0.last }
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { return error } else { return nil } }
    var success: Success? { if case .success(let value) = self { return value } else { return nil } }
}
