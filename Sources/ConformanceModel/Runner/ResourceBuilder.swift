import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// Turns a case's ``ResourceSpec`` into a real `URLSessionResource` wired to the case's recorders.
enum ResourceBuilder {

    static func request(for spec: ResourceSpec, recorders: CaseRecorders) -> URLRequest {
        let url: URL
        switch spec.target {
        case .server(let path): url = recorders.url(path)
        // Port 1 (tcpmux) is privileged and unused on loopback: connecting is refused at once.
        case .refusedPort: url = URL(string: "http://127.0.0.1:1/")!
        case .unsupportedScheme: url = URL(string: "ftp://127.0.0.1:1/file")!
        case .otherScheme(let scheme):
            var components = URLComponents(url: recorders.url("/"), resolvingAgainstBaseURL: false)!
            components.scheme = scheme
            url = components.url!
        }
        var request = URLRequest(url: url, timeoutInterval: spec.timeout)
        request.httpMethod = spec.method
        request.httpBody = spec.body
        // Assigned whole rather than with setValue, which on Linux silently drops a value holding CR, LF or NUL:
        // the header-injection cases need the request to carry exactly what they wrote.
        if !spec.headers.isEmpty { request.allHTTPHeaderFields = spec.headers }
        return request
    }

    /// The resource, making `request` (by default the spec's own) the way the spec says.
    static func resource(for spec: ResourceSpec, recorders: CaseRecorders, request: URLRequest? = nil) -> Network.URLSessionResource {
        let made = request ?? self.request(for: spec, recorders: recorders)
        let making: Network.BaseRequestMaking<URLRequest>
        switch spec.requestMaking {
        case .immediate:
            making = .init { handler in handler(.success(made)) }
        case .failing:
            making = .init { handler in handler(.failure(ConformanceRequestError.makerFailed)) }
        case .asynchronous(let delay):
            making = .init { handler in
                let bag = CancelableBag()
                DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
                    guard !bag.isCancelled else { return }
                    bag += handler(.success(made))
                }
                return bag
            }
        case .pending:
            making = .init { handler in
                recorders.handles.keepPendingHandler(handler)
                return DummyCancelable()
            }
        }
        let errorDecoding: Network.ErrorDecoding<Data, URLResponse>
        switch spec.errorDecoding {
        case .none: errorDecoding = .dummy
        case .jsonAPIError: errorDecoding = .json(ConformanceAPIError.self)
        }
        let priority: Retry.Action.CompareClosure
        switch spec.priority {
        case .mostPrioritary: priority = Retry.Action.mostPrioritary
        case .keepAccumulated:
            priority = { lhs, rhs in
                recorders.priority.record(lhs, rhs); return lhs
            }
        case .takeNewest:
            priority = { lhs, rhs in
                recorders.priority.record(lhs, rhs); return rhs
            }
        }
        return Network.URLSessionResource(
            baseRequestMaking: making, errorDecoding: errorDecoding,
            interceptors: spec.interceptors.map { interceptor($0, recorders: recorders) },
            retryActionPriority: priority, emptyBodyStatusCodes: spec.emptyBodyStatusCodes)
    }

    static func interceptor(_ spec: InterceptorSpec, recorders: CaseRecorders) -> any URLSessionResourceInterceptor {
        switch spec {
        case .recorder(let name, let actions): RecordingInterceptor(name: name, actions: actions, hooks: recorders.hooks)
        case .policy(let policy): self.policy(policy)
        case .setHeader(let name, let value): HeaderInterceptor(name: name, value: value)
        case .failRequest: FailingInterceptor()
        case .recoverRequest(let path): RecoveringInterceptor(url: recorders.url(path))
        case .pendingRequest: PendingInterceptor(handles: recorders.handles)
        case .authenticator(let authenticator): SpecAuthenticator(authenticator)
        case .cancelFetchOnFailure(let action): CancellingInterceptor(action: action, handles: recorders.handles)
        }
    }

    static func policy(_ spec: PolicySpec) -> Network.URLSessionRetryPolicy {
        switch spec {
        case .maxRetries(let max):
            return .maxRetries(max)
        case .constant(let delay, let until):
            return .backoff(.constant(delay: delay, until: truncation(until)))
        case .exponential(let base, let scale, let until):
            let curve: Network.URLSessionRetryPolicy.Backoff.Scale
            switch scale {
            case .linear: curve = { base, retry in base * Double(retry) }
            case .doubling: curve = { base, retry in base * pow(2, Double(retry - 1)) }
            case .zero: curve = { _, _ in 0 }
            }
            return .backoff(.exponential(baseDelay: base, scale: curve, until: truncation(until)))
        case .custom(let actions):
            let queue = Locked(actions)
            return .custom { _, _, _ in queue.withLock { $0.isEmpty ? .none : $0.removeFirst() } }
        case .retryStatuses(let statuses, let max):
            return .custom { _, state, metadata in
                guard let status = (metadata.2 as? HTTPURLResponse)?.statusCode, statuses.contains(status) else { return .none }
                return state.retryCount < max ? .retry : .noRetry(.retries(max))
            }
        }
    }

    private static func truncation(_ spec: TruncationSpec) -> Network.URLSessionRetryPolicy.Backoff.Truncation {
        switch spec {
        case .maxRetries(let max): .maxRetries(max)
        case .maxDelay(let delay): .maxDelay(delay)
        }
    }
}
