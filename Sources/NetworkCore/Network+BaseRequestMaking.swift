import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network {

    /// A witness that makes the base request of a resource, possibly asynchronously, each time the resource
    /// is scheduled (so every retry gets a fresh request).
    ///
    /// When `make` calls its handler asynchronously, the cancelable the handler returns should be added to
    /// the one `make` returned, so that cancelling the fetch reaches the whole chain.
    public struct BaseRequestMaking<Request>: Sendable {

        /// Receives the request, or the error that prevented it; returns the cancelable of the work it starts.
        public typealias Handler = @Sendable (Result<Request, Error>) -> Cancelable

        /// Makes the request and passes it to the handler.
        public let make: @Sendable (@escaping Handler) -> Cancelable

        /// Creates a witness from a closure.
        public init(make: @escaping @Sendable (@escaping Handler) -> Cancelable) {
            self.make = make
        }
    }
}

extension Network.BaseRequestMaking where Request == URLRequest {

    /// Makes the request synchronously with the endpoint's `makeRequest()`; what it throws becomes a failure.
    public static func endpoint(_ endpoint: some HTTPResourceEndpoint) -> Self {
        Self { handler in handler(Result { try endpoint.makeRequest() }) }
    }
}
