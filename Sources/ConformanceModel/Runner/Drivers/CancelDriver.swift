/// ``CaseAction/cancel(_:)``: one fetch, cancelled through its cancelable at a stage of its life, then the grace
/// period for a second completion that must not come.
struct CancelDriver: CaseDriver {
    let stage: CancelStage
    /// Whether the server ends the connection of a fetch cancelled in flight (``CaseWaits/endAbandonedTransfer()``).
    let endsAbandonedTransfer: Bool

    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        let recorders = fetches.recorders
        let cancelable = fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        recorders.handles.cancelable = cancelable
        switch stage {
        case .requestMaking:
            cancelable.cancel()
            try waits.completion("after cancelling during request making")
            recorders.handles.answerPendingHandler(with: recorders.url("/late"))
        case .inFlight:
            try waits.request()
            recorders.hooks.markCancel()
            cancelable.cancel()
            try waits.completion("after cancelling in flight")
            if endsAbandonedTransfer { waits.endAbandonedTransfer() }
        case .retryDelay:
            try waits.failedAttempt()
            cancelable.cancel()
            try waits.completion("after cancelling during the retry delay")
        case .afterCompletion:
            try waits.completion("fetch")
            cancelable.cancel()
        }
        waits.graceWait()
    }
}
