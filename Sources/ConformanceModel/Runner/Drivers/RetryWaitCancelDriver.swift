import Dispatch

/// ``CaseAction/cancelWhileRetryWaits(probePath:retryDelay:)``: a fetch whose first attempt fails, a probe fetch
/// carried through while its retry waits, the cancel, then a watch until the retry would have reached the
/// server, for a request that must not come.
struct RetryWaitCancelDriver: CaseDriver {
    let probePath: String
    let retryDelay: Double

    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        let cancelable = fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        fetches.recorders.handles.cancelable = cancelable
        try waits.failedAttempt()
        let failed = DispatchTime.now()
        let probe = ResourceBuilder.resource(for: ResourceSpec().with { $0.target = .server(probePath) }, recorders: fetches.recorders)
        fetches.stack.fetch(resource: probe, completion: fetches.completeOther(path: probePath))
        try waits.completion("the probe fetch while the retry waits")
        cancelable.cancel()
        try waits.completion("after cancelling while the retry waits")
        // Until the retry would have reached the server, plus a margin: any request now is the retry.
        waits.requests(until: failed + retryDelay + 0.25)
        waits.graceWait()
    }
}
