#if TSAN_VISIBLE_LOCKS
#if canImport(Glibc)
import Glibc
#endif
#else
import Synchronization
#endif

/// State behind a lock: the one lock type of the package's own code, and of the NIO stack beside it.
///
/// Normally a `Synchronization.Mutex`. ThreadSanitizer cannot see that mutex on Linux (it waits with futex
/// calls TSan does not intercept), so it reports races on code that is correct; builds with
/// `-Xswiftc -DTSAN_VISIBLE_LOCKS` (as `Scripts/sanitize` makes them) use a pthread mutex instead, which TSan
/// understands, so that its reports are real.
public final class Locked<State>: @unchecked Sendable {  // the state is touched only under the lock
    #if TSAN_VISIBLE_LOCKS
    private var state: State
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)

    /// Puts `state` behind the lock.
    public init(_ state: State) {
        self.state = state
        mutex.initialize(to: pthread_mutex_t())
        pthread_mutex_init(mutex, nil)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the state, the lock held.
    public func withLock<Result, Failure: Error>(_ body: (inout State) throws(Failure) -> Result) throws(Failure) -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&state)
    }
    #else
    private let mutex: Mutex<State>

    /// Puts `state` behind the lock.
    public init(_ state: sending State) {
        mutex = Mutex(state)
    }

    /// Runs `body` with the state, the lock held.
    public func withLock<Result, Failure: Error>(_ body: (inout sending State) throws(Failure) -> sending Result) throws(Failure)
        -> sending Result
    {
        try mutex.withLock(body)
    }
    #endif
}
