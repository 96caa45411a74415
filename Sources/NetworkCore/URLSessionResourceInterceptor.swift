import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Intercepts the events of a ``Network/URLSessionResource``'s life: making the request, scheduling,
/// success and failure. Interceptors run in array order; every hook has a default that does nothing.
///
/// - Warning: hooks run on the stack's callback thread (see `Network/URLSessionNetworkStack`); do not block.
public protocol URLSessionResourceInterceptor: Sendable {

    /// Receives the request made so far (the base request, or the previous interceptor's result) and passes
    /// on its own result, possibly changed; returns the cancelable of any work it starts.
    func interceptMakeRequestResult(
        _ result: Result<URLRequest, Error>,
        handler: @escaping Network.URLSessionResource.MakeRequestHandler
    ) -> Cancelable

    /// Called just before the request is handed to the transport.
    func interceptScheduledTask(withIdentifier taskIdentifier: Int, request: URLRequest, retryState: Retry.State)

    /// Called when an attempt succeeded.
    func interceptSuccessfulTask(
        withIdentifier taskIdentifier: Int,
        request: URLRequest,
        data: Data,
        response: URLResponse,
        retryState: Retry.State
    )

    /// Called when an attempt failed with `.http`, `.noData` or `.url`; returns the action this interceptor
    /// wants. The state holds the earlier failures only.
    func interceptFailedTask(
        withIdentifier taskIdentifier: Int,
        request: URLRequest,
        data: Data?,
        response: URLResponse?,
        error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action
}

extension URLSessionResourceInterceptor {

    public func interceptMakeRequestResult(
        _ result: Result<URLRequest, Error>,
        handler: @escaping Network.URLSessionResource.MakeRequestHandler
    ) -> Cancelable {
        handler(result)
    }

    public func interceptScheduledTask(withIdentifier taskIdentifier: Int, request: URLRequest, retryState: Retry.State) {}

    public func interceptSuccessfulTask(
        withIdentifier taskIdentifier: Int,
        request: URLRequest,
        data: Data,
        response: URLResponse,
        retryState: Retry.State
    ) {}

    public func interceptFailedTask(
        withIdentifier taskIdentifier: Int,
        request: URLRequest,
        data: Data?,
        response: URLResponse?,
        error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action {
        .none
    }
}

extension Retry.Policy: URLSessionResourceInterceptor where Metadata == (URLRequest, Data?, URLResponse?) {

    /// Evaluates the policy with the request, payload and response of the failed attempt.
    public func interceptFailedTask(
        withIdentifier taskIdentifier: Int,
        request: URLRequest,
        data: Data?,
        response: URLResponse?,
        error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action {
        shouldRetry(with: error, state: retryState, metadata: (request, data, response))
    }
}
