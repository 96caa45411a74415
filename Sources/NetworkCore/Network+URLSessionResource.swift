import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// The unit of work of an HTTP stack: how to make the request, how to decode API errors, the interceptor
    /// chain, how retry actions are combined, and the retry state.
    ///
    /// A resource is a value: fetching it never changes the caller's copy, so fetching it again starts from
    /// ``Retry/State/empty``.
    public struct URLSessionResource: Sendable {

        /// Receives a request result from the previous step of the chain.
        public typealias MakeRequestHandler = @Sendable (Result<URLRequest, Error>) -> Cancelable

        /// Makes the base request.
        public let baseRequestMaking: BaseRequestMaking<URLRequest>

        /// Decodes API errors from unsuccessful responses.
        public let errorDecoding: ErrorDecoding<Data, URLResponse>

        /// The interceptor chain, in order.
        public let interceptors: [URLSessionResourceInterceptor]

        /// Combines the retry actions of the interceptors, as a left fold from `.none`.
        public let retryActionPriority: Retry.Action.CompareClosure

        /// Status codes besides 204 and 205 whose response may come without a body.
        ///
        /// A 2xx response with no body is ``URLSessionError/noData(_:_:)`` unless its status is listed here
        /// (code ported from Apple platforms often expects a body-less 201 or 202 to succeed).
        public let emptyBodyStatusCodes: Set<Int>

        /// The retry history: empty on the first attempt.
        public package(set) var retryState: Retry.State = .empty

        /// Creates a resource.
        ///
        /// - Parameters:
        ///   - baseRequestMaking: makes the base request, for every attempt.
        ///   - errorDecoding: decodes API errors from non-2xx responses; none by default.
        ///   - interceptors: the interceptor chain.
        ///   - retryActionPriority: combines the interceptors' retry actions.
        ///   - emptyBodyStatusCodes: further 2xx codes that succeed without a body.
        public init(
            baseRequestMaking: BaseRequestMaking<URLRequest>,
            errorDecoding: ErrorDecoding<Data, URLResponse> = .dummy,
            interceptors: [URLSessionResourceInterceptor] = [],
            retryActionPriority: @escaping Retry.Action.CompareClosure = Retry.Action.mostPrioritary,
            emptyBodyStatusCodes: Set<Int> = []
        ) {
            self.baseRequestMaking = baseRequestMaking
            self.errorDecoding = errorDecoding
            self.interceptors = interceptors
            self.retryActionPriority = retryActionPriority
            self.emptyBodyStatusCodes = emptyBodyStatusCodes
        }

        /// Makes the request: the base request, then each interceptor in order; the last result goes to
        /// `handler`. Returns the cancelable of the first step, which should reach every later step.
        public func makeRequest(_ handler: @escaping MakeRequestHandler) -> Cancelable {
            let interceptors = self.interceptors
            return baseRequestMaking.make { result in
                Self.intercept(result, with: interceptors[...], handler: handler)
            }
        }

        private static func intercept(
            _ result: Result<URLRequest, Error>,
            with interceptors: ArraySlice<URLSessionResourceInterceptor>,
            handler: @escaping MakeRequestHandler
        ) -> Cancelable {
            guard let first = interceptors.first else { return handler(result) }
            let rest = interceptors.dropFirst()
            return first.interceptMakeRequestResult(result) { next in intercept(next, with: rest, handler: handler) }
        }

        /// Whether a 2xx response with this status may come without a body.
        public func allowsEmptyBody(statusCode: Int) -> Bool {
            statusCode == 204 || statusCode == 205 || emptyBodyStatusCodes.contains(statusCode)
        }
    }
}
