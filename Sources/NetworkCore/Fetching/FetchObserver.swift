import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Watches the fetches of a ``Network/FetchEngine``: where a stack hangs its metrics, without NetworkCore
/// depending on a metrics library.
///
/// Every method has an empty default, so an observer implements only what it needs, and events added later
/// break no observer. An engine with no observer pays one `nil` check per event.
///
/// - Warning: the engine calls these on whatever thread the event arrives on (the caller of `fetch`, the
///   transport's thread, the retry queue), outside its locks, and waits for them: they must be thread-safe,
///   return quickly and never block.
public protocol FetchObserver: Sendable {

    /// A fetch started (also one the engine refuses at once because it was invalidated: every start has a
    /// completion).
    func fetchStarted()

    /// An attempt failed and the interceptors asked for another one, at once or after a delay.
    ///
    /// - Parameter error: why the attempt that is retried failed.
    func retryScheduled(after error: Network.URLSessionError)

    /// A fetch completed (exactly once per ``fetchStarted()``), just before its completion is delivered.
    ///
    /// - Parameters:
    ///   - result: what the fetch's completion receives.
    ///   - duration: from the start of the fetch to its completion, retries and their delays included.
    func fetchCompleted(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>, duration: Duration)
}

extension FetchObserver {
    /// Does nothing.
    public func fetchStarted() {}
    /// Does nothing.
    public func retryScheduled(after error: Network.URLSessionError) {}
    /// Does nothing.
    public func fetchCompleted(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>, duration: Duration) {}
}
