import Dispatch

/// Runs a task's jobs on a queue of its own. The runner blocks its threads while it waits for a case, and
/// so may whoever calls it (a test framework on a two-thread cooperative pool): a task of a case must make
/// progress without the cooperative pool, or `cancel.async-task` would report a hang that is the harness's.
/// The package's own tests use it for the same reason.
package final class DispatchTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "conformance.task-executor")

    package init() {}

    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
