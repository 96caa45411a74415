import Foundation

// The waits of `MockServer` for async tests. Each runs the blocking wait on a thread of its own, so it never holds
// one of the few threads of Swift's cooperative pool while it waits; the deadline bounds it as the blocking form's
// does. Not a Dispatch global queue: on Linux it cannot tell that a block is waiting, so a few waiting blocks hold
// back every block queued behind them (on this 2-core machine, 8 blocks waiting on a condition held a 9th back
// until they timed out). They are named apart from the blocking ones (`await…`) so that an async test which calls a blocking wait
// keeps compiling unchanged.
extension MockServer {

    /// Removes and returns the oldest recorded request, waiting for one until `timeout`, without blocking the
    /// caller's thread; see ``takeRequest(timeout:)``.
    public func awaitRequest(timeout: Duration = .seconds(5)) async throws -> RecordedRequest {
        try await offPool { try self.takeRequest(timeout: timeout) }
    }

    /// Waits until at least `count` connections have been accepted, without blocking the caller's thread; see
    /// ``waitForConnections(_:timeout:)``.
    public func awaitConnections(_ count: Int, timeout: Duration = .seconds(5)) async throws {
        try await offPool { try self.waitForConnections(count, timeout: timeout) }
    }

    /// Waits until connection `index` is closed and returns its final record, without blocking the caller's
    /// thread; see ``waitForClose(ofConnection:timeout:)``.
    @discardableResult
    public func awaitClose(ofConnection index: Int, timeout: Duration = .seconds(5)) async throws -> ConnectionRecord {
        try await offPool { try self.waitForClose(ofConnection: index, timeout: timeout) }
    }

    private func offPool<T: Sendable>(_ wait: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread { continuation.resume(with: Result { try wait() }) }.start()
        }
    }
}
