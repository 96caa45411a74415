import Foundation

/// A witness that decodes a model `T` from a successful payload and its metadata.
public struct ModelDecoding<T, Payload, Metadata>: Sendable {

    /// Decodes the model, or throws.
    public let decode: @Sendable (Payload, Metadata) throws -> T

    /// Creates a witness from a closure.
    public init(decode: @escaping @Sendable (Payload, Metadata) throws -> T) {
        self.decode = decode
    }
}

extension ModelDecoding where T: Decodable & SendableMetatype, Payload == Data {

    /// Decodes `T` from JSON, ignoring the metadata; the decoder's error is thrown.
    public static func json(_ type: T.Type = T.self, decoder: JSONDecoder = JSONDecoder()) -> Self {
        Self { data, _ in try decoder.decode(T.self, from: data) }
    }
}
