import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// The fetch flow of one ``URLSessionResource``, as a value: events go in, the next action comes out.
    ///
    /// The flow is the project's (`docs/spec/fetch.md`, `retries.md`, `cancellation.md`), whatever the transport: make the request (through the make-request
    /// interceptors), send it, sort the outcome into success, `noData`, `http`, `badResponse` or `url`, ask the
    /// interceptors whether to retry, wait for a delay, and complete exactly once, also when cancelled at any
    /// stage. ``FetchEngine`` drives it over a ``FetchTransport``; a stack on another HTTP library can drive
    /// it too.
    ///
    /// The machine never calls back: the driver does what each ``Action`` says (call the hooks, decode an API error,
    /// send, start a timer) and reports the result as the next event. User code therefore never runs inside the
    /// driver's lock: an error decoding that is slow, or that cancels the fetch, holds nothing up.
    ///
    /// Once an action completes the fetch, the machine is finished and answers every later event with
    /// ``Action/none``: a transfer that completes after a cancel, or a timer that fires late, changes nothing.
    public struct FetchStateMachine: Sendable {

        /// What the driver does next.
        public enum Action: Sendable {
            /// Make the request of this resource (``URLSessionResource/makeRequest(_:)``), then report
            /// ``FetchStateMachine/requestMade(_:taskIdentifier:)``.
            case makeRequest(URLSessionResource)
            /// Run the scheduled hooks (``Attempt/interceptScheduled()``), send the request, then report
            /// ``FetchStateMachine/transportCompleted(_:)``.
            case send(Attempt)
            /// Decode the API error of an unsuccessful response with the resource's error decoding
            /// (``URLSessionResource/errorDecoding``), then report ``FetchStateMachine/apiErrorDecoded(_:)``.
            case decodeAPIError(Data?, HTTPURLResponse, ErrorDecoding<Data, URLResponse>)
            /// Ask the interceptors what to do (``FailedAttempt/retryAction()``), then report
            /// ``FetchStateMachine/interceptorsAnswered(_:)``.
            case askInterceptors(FailedAttempt)
            /// Run the success hooks (``SucceededAttempt/interceptSucceeded()``), then complete with the value.
            case succeed(SucceededAttempt)
            /// Wait this long (always more than zero), then report ``FetchStateMachine/retryTimerFired()``.
            case waitForRetry(Retry.Delay)
            /// Complete the fetch with this result. After a cancel, also stop whatever is in flight.
            case complete(Result<Value<Data, URLResponse>, URLSessionError>)
            /// Nothing to do.
            case none
        }

        private enum State: Sendable {
            case idle(URLSessionResource)
            case makingRequest(URLSessionResource)
            case sending(Attempt)
            case decodingAPIError(HTTP.StatusCode, Data?, HTTPURLResponse, Attempt)
            case askingInterceptors(FailedAttempt)
            case waitingForRetry(URLSessionResource)
            case finished
        }

        private var state: State

        /// A machine for one fetch of `resource`.
        public init(resource: URLSessionResource) {
            state = .idle(resource)
        }

        /// Whether the fetch has completed (or its completion is being delivered).
        public var isFinished: Bool {
            if case .finished = state { return true }
            return false
        }

        /// Starts the fetch.
        public mutating func start() -> Action {
            guard case .idle(let resource) = state else { return .none }
            state = .makingRequest(resource)
            return .makeRequest(resource)
        }

        /// The resource made its request, or failed to.
        ///
        /// - Parameters:
        ///   - result: The request the resource made, or why it could not.
        ///   - taskIdentifier: a number the driver chose for this attempt, unique among its attempts,
        ///     given to every hook of the attempt.
        public mutating func requestMade(_ result: Result<URLRequest, Error>, taskIdentifier: Int) -> Action {
            guard case .makingRequest(let resource) = state else { return .none }
            switch result {
            case .failure(let error):
                return finish(.failure(.noRequest(error)))
            case .success(let request):
                let attempt = Attempt(resource: resource, request: request, taskIdentifier: taskIdentifier)
                state = .sending(attempt)
                return .send(attempt)
            }
        }

        /// The transport finished the attempt.
        public mutating func transportCompleted(_ outcome: TransportOutcome) -> Action {
            guard case .sending(let attempt) = state else { return .none }
            switch outcome {
            case .failure(let error):
                return askInterceptors(FailedAttempt(error: .url(error), data: nil, response: nil, attempt: attempt))
            case .noHTTPResponse(let response):
                // No HTTP response answers the request: this skips the interceptors and is never retried.
                return finish(.failure(.badResponse(response)))
            case .response(let response, let body):
                return sort(response, body: body, attempt: attempt)
            }
        }

        /// The resource's error decoding made this of an unsuccessful response's payload.
        public mutating func apiErrorDecoded(_ apiError: Error?) -> Action {
            guard case .decodingAPIError(let status, let body, let response, let attempt) = state else { return .none }
            return askInterceptors(
                FailedAttempt(error: .http(status, apiError, response), data: body, response: response, attempt: attempt))
        }

        /// The interceptors answered a failure.
        public mutating func interceptorsAnswered(_ action: Retry.Action) -> Action {
            guard case .askingInterceptors(let failed) = state else { return .none }
            var next = failed.attempt.resource
            next.retryState.errors.append(failed.error)
            switch action {
            case .none:
                return finish(.failure(failed.error))
            case .noRetry(let reason):
                return finish(.failure(.retry(reason, next.retryState)))
            case .retry:
                state = .makingRequest(next)
                return .makeRequest(next)
            case .retryAfter(let delay):
                // A delay of zero or less (or NaN) retries at once and adds nothing to the total delay.
                guard delay > 0 else {
                    state = .makingRequest(next)
                    return .makeRequest(next)
                }
                next.retryState.totalDelay += delay
                state = .waitingForRetry(next)
                return .waitForRetry(delay)
            }
        }

        /// The retry delay passed.
        public mutating func retryTimerFired() -> Action {
            guard case .waitingForRetry(let resource) = state else { return .none }
            state = .makingRequest(resource)
            return .makeRequest(resource)
        }

        /// The fetch's `Cancelable` was cancelled: complete with ``URLSessionError/cancelled`` unless finished.
        public mutating func cancel() -> Action {
            guard !isFinished else { return .none }
            return finish(.failure(.cancelled))
        }

        private mutating func finish(_ result: Result<Value<Data, URLResponse>, URLSessionError>) -> Action {
            state = .finished
            return .complete(result)
        }

        private mutating func askInterceptors(_ failed: FailedAttempt) -> Action {
            state = .askingInterceptors(failed)
            return .askInterceptors(failed)
        }

        private mutating func sort(_ response: HTTPURLResponse, body: Data?, attempt: Attempt) -> Action {
            let resource = attempt.resource
            let status = HTTP.StatusCode(response.statusCode)
            switch status {
            case .informational:
                // A 1xx is never the answer to a request: the server left HTTP (an unrequested 101) or broke it.
                return finish(.failure(.badResponse(response)))
            case .success:
                let payload = body ?? Data()
                // A HEAD response has no body by definition: it is not "unexpectedly empty".
                if payload.isEmpty, !resource.allowsEmptyBody(statusCode: response.statusCode), attempt.request.httpMethod != "HEAD" {
                    return askInterceptors(
                        FailedAttempt(error: .noData(status, response), data: body, response: response, attempt: attempt))
                }
                state = .finished
                return .succeed(SucceededAttempt(value: Value(value: payload, response: response), attempt: attempt))
            default:
                state = .decodingAPIError(status, body, response, attempt)
                return .decodeAPIError(body, response, resource.errorDecoding)
            }
        }
    }
}
