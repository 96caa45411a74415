/// What the runner does with the stack during a case.
package enum CaseAction: Sendable, Hashable {
    /// `fetch(resource:completion:)` once.
    case fetch
    /// `fetchAndDecode` with a JSON model `{"name": String}`.
    case fetchAndDecode
    /// The async `fetch(resource:)`.
    case fetchAsync
    /// Fetch, then cancel through the returned cancelable at this stage.
    case cancel(CancelStage)
    /// Cancel the Swift task of an async fetch while its request is in flight.
    case cancelAsyncTask
    /// Call the async fetch from a Swift task that is already cancelled.
    case asyncFetchInCancelledTask
    /// Fetch, then release the stack while the request is in flight.
    case releaseStackInFlight
    /// Fetch, wait for the failed hook, run a second fetch of `probePath` on the same stack to its completion (the
    /// event that proves the first one's delayed retry began to wait, as in ``cancelWhileRetryWaits(probePath:retryDelay:)``),
    /// then release the stack. The outcome is the first fetch's.
    case releaseStackWhileRetryWaits(probePath: String)
    /// Fetch the same resource value this many times, one after the other; the outcome is the last one's.
    case sequential(Int)
    /// Fetch, wait until the server has closed the first connection (as an idle server does), then fetch the same
    /// resource again; the outcome is the second one's.
    case fetchAfterServerClose
    /// Fetch, change the handler's configuration (its ``ReconfigurableChallengeHandler/reconfigure``), then
    /// fetch the same resource again on the same stack; the outcome is the second one's.
    case fetchReconfigureFetch
    /// Fetch, wait for the failed hook, then run a second fetch of `probePath` on the same stack to its
    /// completion, then cancel the first and watch for `retryDelay` (and a margin) that its retry never
    /// comes. The probe is the event that proves the wait began: a stack has returned from the failed hook
    /// and scheduled the retry before it carries another fetch through, without any sleep in the case. The
    /// outcome is the first fetch's.
    case cancelWhileRetryWaits(probePath: String, retryDelay: Double)
    /// Fetch the case's resource at each of these paths, all at once on the same stack, and wait for every
    /// fetch. The outcome is the first path's; ``Check/fetches(path:kind:count:)`` judges the others.
    case concurrent(paths: [String])
    /// Fetch the case's resource under each of these host names in turn (each pointed at the case's server, so
    /// the stack needs ``SubjectFeature/resolveOverrides``), one after the other on the same stack. The outcome is
    /// the last one's; ``Check/fetches(path:kind:count:)`` judges the others, with the host name as the path.
    case hosts([String])
}

/// When a case cancels its fetch.
package enum CancelStage: String, Sendable, Hashable {
    /// Right after `fetch` returns, while the request maker has not answered.
    case requestMaking
    /// Once the server has read the request (which it never answers).
    case inFlight
    /// While a delayed retry waits (the failed hook answered `retryAfter(30)`).
    case retryDelay
    /// After the completion ran.
    case afterCompletion
}
