/// ``CaseAction/sequential(_:)``: the same resource fetched `count` times, each after the one before completed;
/// the outcome is the last one's.
struct SequentialFetchDriver: CaseDriver {
    let count: Int

    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        for index in 0..<count {
            fetches.stack.fetch(resource: fetches.resource, completion: fetches.complete)
            try waits.completion("fetch \(index + 1) of \(count)")
        }
    }
}
