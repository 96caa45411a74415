import Foundation
import Testing

/// Runs each test of a suite on threads that may block, instead of Swift's cooperative pool.
///
/// Swift Testing runs every test on the cooperative pool, which has one thread per core: two on the machines this
/// package is tested on. A test that waits synchronously (`MockServer.takeRequest`, a semaphore, a child process,
/// `ConformanceRunner.run`) holds one of those threads for as long as it waits. Two such tests at once stalled
/// every other test in the process, pure ones included, until a 60 s time limit fired on tests that had done
/// nothing wrong. A suite that blocks carries this trait, so that its waits cost a thread of their own and the
/// cooperative pool stays free for the tests that never block.
public struct BlockingTrait: SuiteTrait, TestTrait, TestScoping {
    public var isRecursive: Bool { true }

    public func scopeProvider(for test: Test, testCase: Test.Case?) -> Self? {
        testCase == nil ? nil : self
    }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        try await withTaskExecutorPreference(BlockingExecutor.shared) { try await function() }
    }
}

extension Trait where Self == BlockingTrait {
    /// The tests wait synchronously, so they run on threads that may block (see ``BlockingTrait``).
    public static var blocking: Self { BlockingTrait() }
}

/// A task executor that runs each job on a thread of its own.
///
/// Not a concurrent Dispatch queue: on Linux such a queue drains on the same default-QoS root queue as the
/// cooperative pool, so a blocked job still took one of the two threads every test shares (gdb showed a
/// `.blocking` test waiting 55 s on a child process on a `root.default-qos` thread while 80 tests hit their
/// time limit). A job is short between two suspensions, so a thread per job costs a thread start, not a pool.
final class BlockingExecutor: TaskExecutor {
    static let shared = BlockingExecutor()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        let thread = Thread { job.runSynchronously(on: executor) }
        thread.name = "tests.blocking"
        thread.start()
    }
}
