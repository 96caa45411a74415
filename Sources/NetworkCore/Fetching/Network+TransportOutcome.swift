import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// How a transport ended one attempt: all a ``FetchStateMachine`` needs to know of it.
    public enum TransportOutcome: Sendable {
        /// A response whose head ended, with its body (`nil` or empty when no body byte arrived). A 1xx status
        /// here is a server that left HTTP, and becomes ``URLSessionError/badResponse(_:)``.
        case response(HTTPURLResponse, body: Data?)
        /// The exchange ended without an HTTP response to the request: ``URLSessionError/badResponse(_:)``,
        /// never retried. The response is whatever the transport has (an interim one, say), or `nil`.
        case noHTTPResponse(URLResponse?)
        /// The transport failed; the code says how (see `docs/urlerror-mapping.md`).
        case failure(URLError)
    }
}
