import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The underlying reason of a transport failure, kept for debugging inside the `URLError` of
/// ``Network/URLSessionError/url(_:)`` (see ``Foundation/URLError/transportFailure``).
public struct TransportFailure: Error, Sendable, CustomStringConvertible {

    /// The library that failed, e.g. `"libcurl"`.
    public let library: String

    /// The library's own code, e.g. a `CURLcode`.
    public let code: Int

    /// The library's message.
    public let message: String

    /// Standard chain validation's failure, when that is why the connection was refused.
    public let chainValidationFailure: ChainValidationFailure?

    /// The trust handler's refusal, when that is why the connection was refused.
    public let serverTrustFailure: ServerTrustFailure?

    /// Creates a transport failure.
    public init(
        library: String,
        code: Int,
        message: String,
        chainValidationFailure: ChainValidationFailure? = nil,
        serverTrustFailure: ServerTrustFailure? = nil
    ) {
        self.library = library
        self.code = code
        self.message = message
        self.chainValidationFailure = chainValidationFailure
        self.serverTrustFailure = serverTrustFailure
    }

    /// The `userInfo` key under which a `URLError` carries its transport failure.
    public static let userInfoKey = "TransportFailure"

    /// One line: the library, its code and its message (escaped and bounded: a library may quote what a server sent),
    /// then the chain's or the handler's refusal, if one is why.
    public var description: String {
        var text = "\(library) error \(code): \(DisplayText.line(message))"
        if let chainValidationFailure { text += " [\(chainValidationFailure)]" }
        if let serverTrustFailure { text += " [\(serverTrustFailure)]" }
        return text
    }
}

extension TransportFailure: LocalizedError {
    /// The ``description``.
    public var errorDescription: String? { description }
}

extension URLError {

    /// Makes a `URLError` that carries a transport failure (also as its underlying error and description).
    public init(_ code: URLError.Code, failure: TransportFailure, url: URL? = nil) {
        var userInfo: [String: Any] = [
            TransportFailure.userInfoKey: failure,
            NSUnderlyingErrorKey: failure as NSError,
            NSLocalizedDescriptionKey: failure.description,
        ]
        if let url { userInfo[NSURLErrorFailingURLErrorKey] = url }
        self.init(code, userInfo: userInfo)
    }

    /// The underlying transport failure, if the stack recorded one.
    public var transportFailure: TransportFailure? { userInfo[TransportFailure.userInfoKey] as? TransportFailure }

    /// The trust handler's refusal, if that is why the connection failed.
    public var serverTrustFailure: ServerTrustFailure? { transportFailure?.serverTrustFailure }
}
