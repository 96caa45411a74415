import NetworkCore

/// How many times each fetch of the soak completed.
final class CompletionLedger: Sendable {
    private let counts: Locked<[UInt8]>

    init(fetches: Int) {
        counts = Locked([UInt8](repeating: 0, count: fetches))
    }

    func complete(_ fetch: Int) {
        counts.withLock { $0[fetch] = $0[fetch] &+ 1 }
    }

    /// Fetches completed at least once, fetches never completed, fetches completed more than once.
    func tally() -> (completed: Int, lost: Int, doubles: Int) {
        counts.withLock { counts in
            (counts.filter { $0 > 0 }.count, counts.filter { $0 == 0 }.count, counts.filter { $0 > 1 }.count)
        }
    }
}
