import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// Why a fetch on an HTTP stack failed.
    ///
    /// Every case is reachable over a real socket; see the conformance suite for a trigger of each.
    public enum URLSessionError: Error {

        /// An API error decoded from an unsuccessful response.
        public typealias APIError = Error

        /// The total delay of the retries of a fetch.
        public typealias TotalRetriedDelay = Retry.Delay

        /// The request could not be made: the request maker or an interceptor failed. Never retried.
        case noRequest(Error)
        /// The server answered with a status outside 200–299; the API error is what the resource's
        /// error decoding made of the payload.
        case http(HTTP.StatusCode, APIError?, URLResponse)
        /// A 2xx response other than 204 or 205 arrived with no body.
        case noData(HTTP.StatusCode, URLResponse)
        /// The transport failed. The code is specific (see the URLError mapping table in the docs), and
        /// `userInfo` carries the underlying ``TransportFailure``.
        case url(URLError)
        /// No HTTP response came back. Never retried.
        case badResponse(URLResponse?)
        /// A retry policy explicitly refused to retry; the state holds every attempt's error, this one included.
        case retry(Retry.Error, Retry.State)
        /// The fetch was cancelled through its ``Cancelable``.
        case cancelled

        /// The response of the failure, if there is one; for `.retry`, that of the last attempt.
        public var response: URLResponse? {
            switch self {
            case .noRequest, .url, .cancelled: return nil
            case .http(_, _, let response), .noData(_, let response): return response
            case .badResponse(let response): return response
            case .retry(_, let state): return (state.errors.last as? URLSessionError)?.response
            }
        }

        /// The error of the last attempt: `self`, except for `.retry`, where it is the last error of the
        /// state if that is a `URLSessionError` (not recursively).
        public var lastError: URLSessionError {
            guard case .retry(_, let state) = self, let last = state.errors.last as? URLSessionError else { return self }
            return last
        }

        /// The status code of the failure, if it has one; for `.retry`, that of the last attempt.
        public var statusCode: HTTP.StatusCode? {
            switch self {
            case .http(let statusCode, _, _), .noData(let statusCode, _): return statusCode
            case .noRequest, .url, .badResponse, .cancelled: return nil
            case .retry(_, let state): return (state.errors.last as? URLSessionError)?.statusCode
            }
        }
    }
}
