/// ``CaseAction/fetchAfterServerClose``: a fetch, then, once the server has closed the first connection, a fetch of the
/// same resource on the same stack.
struct ServerCloseFetchDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        try waits.completion("the first fetch")
        try waits.serverClose(ofConnection: 0)
        fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
        try waits.completion("the fetch after the server closed the first connection")
    }
}
