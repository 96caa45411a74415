import Dispatch

/// Runs a task's jobs on a queue of its own, so that the task makes progress even while blocking tests hold
/// every thread of the cooperative pool (the machine may have only two).
final class DispatchTaskExecutor: TaskExecutor {
    private let queue = DispatchQueue(label: "test.task-executor")

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}
