import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// Records every hook and answers failures with scripted actions.
final class RecordingInterceptor: URLSessionResourceInterceptor {
    let name: String
    let actions: Locked<[Retry.Action]>
    let hooks: HookRecorder

    init(name: String, actions: [Retry.Action], hooks: HookRecorder) {
        self.name = name
        self.actions = Locked(actions)
        self.hooks = hooks
    }

    func interceptMakeRequestResult(_ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler)
        -> Cancelable
    {
        hooks.record(HookEvent(interceptor: name, hook: "make", taskIdentifier: nil, retryCount: -1, totalDelay: 0))
        return handler(result)
    }

    func interceptScheduledTask(withIdentifier taskIdentifier: Int, request: URLRequest, retryState: Retry.State) {
        hooks.record(
            HookEvent(
                interceptor: name, hook: "scheduled", taskIdentifier: taskIdentifier, retryCount: retryState.retryCount,
                totalDelay: retryState.totalDelay))
    }

    func interceptSuccessfulTask(
        withIdentifier taskIdentifier: Int, request: URLRequest, data: Data, response: URLResponse, retryState: Retry.State
    ) {
        hooks.record(
            HookEvent(
                interceptor: name, hook: "success", taskIdentifier: taskIdentifier, retryCount: retryState.retryCount,
                totalDelay: retryState.totalDelay))
    }

    func interceptFailedTask(
        withIdentifier taskIdentifier: Int, request: URLRequest, data: Data?, response: URLResponse?, error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action {
        let action = actions.withLock { $0.isEmpty ? Retry.Action.none : $0.removeFirst() }
        hooks.record(
            HookEvent(
                interceptor: name, hook: "failure", taskIdentifier: taskIdentifier, retryCount: retryState.retryCount,
                totalDelay: retryState.totalDelay))
        return action
    }
}

/// Sets a header in the make-request hook.
struct HeaderInterceptor: URLSessionResourceInterceptor {
    let name: String
    let value: String

    func interceptMakeRequestResult(_ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler)
        -> Cancelable
    {
        handler(
            result.map { request in
                var request = request
                request.setValue(value, forHTTPHeaderField: name)
                return request
            })
    }
}

/// Fails the make-request hook.
struct FailingInterceptor: URLSessionResourceInterceptor {
    func interceptMakeRequestResult(_ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler)
        -> Cancelable
    {
        handler(.failure(ConformanceRequestError.interceptorFailed))
    }
}

/// Turns a failure of the previous step into a request: an interceptor may turn failure into success.
struct RecoveringInterceptor: URLSessionResourceInterceptor {
    let url: URL

    func interceptMakeRequestResult(_ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler)
        -> Cancelable
    {
        switch result {
        case .success: handler(result)
        case .failure: handler(.success(URLRequest(url: url, timeoutInterval: 5)))
        }
    }
}

/// Keeps its make-request hook's handler in the case's handles and answers nothing (the runner answers late).
struct PendingInterceptor: URLSessionResourceInterceptor {
    let handles: FetchHandles

    func interceptMakeRequestResult(_ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler)
        -> Cancelable
    {
        handles.keepPendingHandler(handler)
        return DummyCancelable()
    }
}

/// Cancels the fetch from the failed hook, then answers an action.
struct CancellingInterceptor: URLSessionResourceInterceptor {
    let action: Retry.Action
    let handles: FetchHandles

    func interceptFailedTask(
        withIdentifier taskIdentifier: Int, request: URLRequest, data: Data?, response: URLResponse?, error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action {
        handles.cancelable?.cancel()
        return action
    }
}

/// An authenticator from an ``AuthenticatorSpec``.
final class SpecAuthenticator: URLRequestAuthenticator, URLSessionResourceInterceptor {
    private let spec: AuthenticatorSpec
    private let refreshed = Locked(false)

    init(_ spec: AuthenticatorSpec) { self.spec = spec }

    private func authorized(_ request: URLRequest, _ token: String) -> URLRequest {
        var request = request
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        return request
    }

    func authenticateRequest(_ request: URLRequest, handler: @escaping AuthenticationHandler) -> Cancelable {
        switch spec {
        case .token(let token), .refusingAfterUnauthorized(let token):
            return handler(.success(authorized(request, token)))
        case .reauthenticating(let first, let second):
            return handler(.success(authorized(request, refreshed.withLock { $0 } ? second : first)))
        case .refusing:
            return handler(.failure(ConformanceRequestError.authenticationRefused))
        case .asynchronous(let token, let delay):
            let bag = CancelableBag()
            let request = authorized(request, token)
            DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                guard !bag.isCancelled else { return }
                bag += handler(.success(request))
            }
            return bag
        }
    }

    func evaluateFailedRequest(_ request: URLRequest, data: Data?, response: URLResponse?, error: Error, retryState: Retry.State)
        -> Retry.Action
    {
        guard (response as? HTTPURLResponse)?.statusCode == 401 else { return .none }
        switch spec {
        case .reauthenticating:
            // Refresh once; a second 401 with the new token is not an expired-token problem.
            let first = refreshed.withLock { wasRefreshed -> Bool in
                defer { wasRefreshed = true }; return !wasRefreshed
            }
            return first ? .retry : .none
        case .refusingAfterUnauthorized:
            return .noRetry(.custom(ConformanceRequestError.authenticationRefused))
        default:
            return .none
        }
    }
}
