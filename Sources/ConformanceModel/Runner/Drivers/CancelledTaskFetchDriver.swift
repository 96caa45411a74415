/// ``CaseAction/asyncFetchInCancelledTask``: an async fetch called from a task that cancelled itself first, so that
/// Swift runs the fetch's cancellation handler before the fetch has begun; then the grace period for a second
/// completion.
struct CancelledTaskFetchDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        _ = AsyncFetchDriver.start(fetches, cancelledFirst: true)
        try waits.completion("async fetch in a cancelled task")
        waits.graceWait()
    }
}
