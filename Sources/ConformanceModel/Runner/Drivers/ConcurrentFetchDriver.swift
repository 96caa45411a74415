/// ``CaseAction/concurrent(paths:)``: the case's resource at each path, all fetched at once on the same stack,
/// then a wait for every completion; the outcome is the first path's.
struct ConcurrentFetchDriver: CaseDriver {
    let paths: [String]

    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        for (index, path) in paths.enumerated() {
            fetches.stack.fetch(
                resource: fetches.resource(at: path), completion: index == 0 ? fetches.complete : fetches.completeOther(path: path))
        }
        for index in paths.indices { try waits.completion("concurrent fetch \(index + 1) of \(paths.count)") }
    }
}
