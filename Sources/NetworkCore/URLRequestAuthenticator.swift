import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Authenticates requests, and reacts to failures that may be authentication failures (for example by
/// refreshing a token and asking for a retry).
///
/// Add an authenticator to a resource's interceptors; it must also declare conformance to
/// ``URLSessionResourceInterceptor`` (an empty extension is enough): its make-request hook then calls
/// ``authenticateRequest(_:handler:)`` for successful results, and its failed hook
/// ``evaluateFailedRequest(_:data:response:error:retryState:)``.
public protocol URLRequestAuthenticator: AnyObject, Sendable {

    /// Receives the authenticated request, or the error that prevented authentication.
    typealias AuthenticationHandler = @Sendable (Result<URLRequest, Error>) -> Cancelable

    /// Authenticates the request. An asynchronous implementation adds the handler's cancelable to the one it
    /// returned, so that cancellation reaches it.
    @discardableResult
    func authenticateRequest(_ request: URLRequest, handler: @escaping AuthenticationHandler) -> Cancelable

    /// Decides what to do about a failed request. The state holds the earlier failures only.
    func evaluateFailedRequest(
        _ request: URLRequest,
        data: Data?,
        response: URLResponse?,
        error: Error,
        retryState: Retry.State
    ) -> Retry.Action
}

extension URLSessionResourceInterceptor where Self: URLRequestAuthenticator {

    /// Authenticates a successful result; a failure is passed on without calling the authenticator.
    public func interceptMakeRequestResult(
        _ result: Result<URLRequest, Error>,
        handler: @escaping Network.URLSessionResource.MakeRequestHandler
    ) -> Cancelable {
        switch result {
        case .success(let request): return authenticateRequest(request, handler: handler)
        case .failure: return handler(result)
        }
    }

    /// Asks ``URLRequestAuthenticator/evaluateFailedRequest(_:data:response:error:retryState:)``.
    public func interceptFailedTask(
        withIdentifier taskIdentifier: Int,
        request: URLRequest,
        data: Data?,
        response: URLResponse?,
        error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action {
        evaluateFailedRequest(request, data: data, response: response, error: error, retryState: retryState)
    }
}
