/// ``CaseAction/fetch``: one fetch, whose cancelable the case's handles keep for the interceptors that cancel it.
struct SingleFetchDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        fetches.recorders.handles.cancelable = fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        try waits.completion("fetch")
    }
}
