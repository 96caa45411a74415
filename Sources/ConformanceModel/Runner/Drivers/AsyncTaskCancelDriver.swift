/// ``CaseAction/cancelAsyncTask``: an async fetch whose task is cancelled once the server has read the request,
/// then the grace period for a second completion.
struct AsyncTaskCancelDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        let task = AsyncFetchDriver.start(fetches)
        try waits.request()
        task.cancel()
        try waits.completion("after cancelling the task")
        waits.graceWait()
    }
}
