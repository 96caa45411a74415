import Foundation

extension Network {

    /// A witness that decodes an API error from the payload and metadata of an unsuccessful (non-2xx)
    /// response. It never throws: no error decoded is `nil`.
    public struct ErrorDecoding<Payload, Metadata>: Sendable {

        /// Decodes an error, or returns `nil`.
        public let decode: @Sendable (Payload?, Metadata) -> Error?

        /// Creates a witness from a closure.
        public init(decode: @escaping @Sendable (Payload?, Metadata) -> Error?) {
            self.decode = decode
        }

        /// Decodes nothing.
        public static var dummy: Self { Self { _, _ in nil } }
    }
}

extension Network.ErrorDecoding where Payload == Data {

    /// Decodes `E` from a JSON payload; no payload, or a payload that does not decode, gives `nil`.
    public static func json<E: Error & Decodable & SendableMetatype>(_ type: E.Type, decoder: JSONDecoder = JSONDecoder()) -> Self {
        Self { data, _ in data.flatMap { try? decoder.decode(E.self, from: $0) } }
    }
}
