import Foundation

extension ConformanceCase {

    /// How long a conforming stack can take on this case, from the limits the case itself sets: three times
    /// its shortest one (the request's timeout, or the per-attempt limit) plus 2 s, for one timed-out retry
    /// and a loaded machine. `nil` when the case runs several fetches one after another, whose times add up.
    ///
    /// A stall the subject ignores then costs this, not the whole watchdog: the cases that state a 1 s
    /// timeout are exactly those a stack that does not honour it hangs on.
    var ownTimeBound: TimeInterval? {
        switch action {
        case .fetch, .fetchAsync, .fetchAndDecode, .concurrent:
            let shortest = min(resource.timeout, stack.resourceTimeout ?? .infinity)
            return 3 * shortest + 2
        default:
            return nil
        }
    }

    /// The watchdog for this case: its own time bound, never more than the run's `watchdog`.
    func watchdog(capped watchdog: TimeInterval) -> TimeInterval {
        min(watchdog, ownTimeBound ?? watchdog)
    }
}
