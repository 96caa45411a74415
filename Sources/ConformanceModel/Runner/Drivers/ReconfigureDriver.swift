/// ``CaseAction/fetchReconfigureFetch``: a fetch, the handler's change of configuration, and a second fetch of
/// the same resource on the same stack; the outcome is the second one's.
struct ReconfigureDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        guard let reconfigure = fetches.recorders.handles.reconfigure else { throw .harness("the case's handler cannot be reconfigured") }
        fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        try waits.completion("the fetch before the change")
        reconfigure()
        fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        try waits.completion("the fetch after the change")
    }
}
