import Dispatch
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

/// A task executor on a concurrent Dispatch queue: Dispatch gives a blocked job's queue another thread, where the
/// cooperative pool would not.
final class BlockingExecutor: TaskExecutor {
    static let shared = BlockingExecutor()
    private let queue = DispatchQueue(label: "tests.blocking", attributes: .concurrent)

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        queue.async { job.runSynchronously(on: executor) }
    }
}
