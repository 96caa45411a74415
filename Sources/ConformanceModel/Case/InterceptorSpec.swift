import Foundation
import NetworkCore

/// One interceptor of a case's chain, as data; the runner builds the real interceptor per case.
package enum InterceptorSpec: Sendable {
    /// Records every hook as `name.hook` (with task id and retry state) and answers failures with these
    /// actions in turn (`.none` once they run out).
    case recorder(String, actions: [Retry.Action] = [])
    /// A retry policy (`Network.URLSessionRetryPolicy`).
    case policy(PolicySpec)
    /// Sets a header on the request in the make-request hook.
    case setHeader(String, String)
    /// Fails the make-request hook with ``ConformanceRequestError/interceptorFailed``.
    case failRequest
    /// Turns a failed request result back into a request to this path on the case's server.
    case recoverRequest(path: String)
    /// Never answers its make-request hook: the case keeps the handler (for cancellation while an interceptor,
    /// not the base request maker, still makes the request).
    case pendingRequest
    /// A ``URLRequestAuthenticator``.
    case authenticator(AuthenticatorSpec)
    /// Cancels the fetch from its failed hook, then answers this action (cancellation between completion
    /// and retry scheduling).
    case cancelFetchOnFailure(then: Retry.Action)
}

/// A retry policy, as data.
package enum PolicySpec: Sendable {
    /// `.maxRetries(n)`.
    case maxRetries(Int)
    /// `.backoff(.constant(delay:until:))`.
    case constant(delay: Double, until: TruncationSpec)
    /// `.backoff(.exponential(baseDelay:scale:until:))`.
    case exponential(base: Double, scale: ScaleSpec, until: TruncationSpec)
    /// `.custom` answering these actions in turn (`.none` once they run out).
    case custom([Retry.Action])
    /// `.custom` that retries only for these HTTP statuses (inspecting the metadata's response), else `.none`.
    case retryStatuses(Set<Int>, max: Int)
}

/// A backoff truncation, as data.
package enum TruncationSpec: Sendable, Hashable {
    case maxRetries(Int)
    case maxDelay(Double)
}

/// A backoff scale, as data: the library has no built-in curve.
package enum ScaleSpec: String, Sendable, Hashable {
    /// `base × retry`.
    case linear
    /// `base × 2^(retry - 1)`.
    case doubling
    /// Always 0: retries at once without adding to the total delay.
    case zero
}

/// A ``URLRequestAuthenticator``, as data.
package enum AuthenticatorSpec: Sendable, Hashable {
    /// Adds `Authorization: Bearer <token>`; never asks for a retry.
    case token(String)
    /// Adds `Authorization: Bearer <first>`; after a 401 it switches to `second` and asks for `.retry`, once.
    case reauthenticating(first: String, second: String)
    /// Fails to authenticate (``ConformanceRequestError/authenticationRefused``).
    case refusing
    /// Adds a token; after a 401 it answers `.noRetry(.custom(authenticationRefused))`.
    case refusingAfterUnauthorized(String)
    /// Authenticates asynchronously after this many seconds.
    case asynchronous(token: String, after: Double)
}
