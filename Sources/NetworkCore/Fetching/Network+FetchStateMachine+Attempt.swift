import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network.FetchStateMachine {

    /// One attempt of a fetch: the resource as it stood (with its retry state), the request it made, and the
    /// number that identifies the attempt to every hook.
    public struct Attempt: Sendable {
        /// The resource, with the retry state of this attempt.
        public let resource: Network.URLSessionResource
        /// The request made for this attempt.
        public let request: URLRequest
        /// The attempt's task identifier, given to every hook.
        public let taskIdentifier: Int

        /// Tells every interceptor that the request is about to be sent.
        public func interceptScheduled() {
            for interceptor in resource.interceptors {
                interceptor.interceptScheduledTask(withIdentifier: taskIdentifier, request: request, retryState: resource.retryState)
            }
        }
    }

    /// An attempt that failed, and what the interceptors are shown of it.
    public struct FailedAttempt: Sendable {
        /// Why the attempt failed.
        public let error: Network.URLSessionError
        /// The body received, if any.
        public let data: Data?
        /// The response received, if any.
        public let response: URLResponse?
        /// The attempt.
        public let attempt: Network.FetchStateMachine.Attempt

        /// Asks every interceptor, and combines their answers with the resource's priority.
        public func retryAction() -> Retry.Action {
            let resource = attempt.resource
            return resource.interceptors.reduce(Retry.Action.none) { action, interceptor in
                resource.retryActionPriority(
                    action,
                    interceptor.interceptFailedTask(
                        withIdentifier: attempt.taskIdentifier, request: attempt.request, data: data, response: response,
                        error: error, retryState: resource.retryState))
            }
        }
    }

    /// An attempt that succeeded.
    public struct SucceededAttempt: Sendable {
        /// The fetch's value.
        public let value: Network.Value<Data, URLResponse>
        /// The attempt.
        public let attempt: Network.FetchStateMachine.Attempt

        /// Tells every interceptor that the attempt succeeded.
        public func interceptSucceeded() {
            let resource = attempt.resource
            for interceptor in resource.interceptors {
                interceptor.interceptSuccessfulTask(
                    withIdentifier: attempt.taskIdentifier, request: attempt.request, data: value.value,
                    response: value.response, retryState: resource.retryState)
            }
        }
    }
}
