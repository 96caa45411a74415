import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The namespace of the network layer: stacks, resources, their witnesses and errors.
///
/// `Network/URLSessionNetworkStack` (in the `Reference` module) is the HTTP stack; everything in this
/// module is free of C and of any transport, so a third-party ``NetworkStack`` can depend on it alone.
public enum Network {

    /// The retry policy of a ``Network/URLSessionResource``: its metadata is the request actually sent, the
    /// attempt's raw payload and its raw response.
    public typealias URLSessionRetryPolicy = Retry.Policy<(URLRequest, Data?, URLResponse?)>

    /// A fetched (or decoded) value together with the response it came with.
    public struct Value<T, Response> {

        /// The payload or the model decoded from it.
        public let value: T

        /// The underlying client's response, e.g. an `HTTPURLResponse`.
        public let response: Response

        /// Creates a value.
        public init(value: T, response: Response) {
            self.value = value
            self.response = response
        }

        /// Transforms the value, keeping the same response.
        ///
        /// - Parameter transform: receives the value and the response; what it throws is rethrown.
        public func mapValue<U>(_ transform: (T, Response) throws -> U) rethrows -> Value<U, Response> {
            Value<U, Response>(value: try transform(value, response), response: response)
        }
    }
}

extension Network.Value: Sendable where T: Sendable, Response: Sendable {}
