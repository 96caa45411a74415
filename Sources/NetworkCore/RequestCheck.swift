import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What every stack refuses before a byte of a request is sent: a URL that is not `http` or `https`
/// (`unsupportedURL`), one without a host (`badURL`), and a header field that could inject another (`badURL`: a name
/// that is not an RFC 9110 token, or a name or value holding CR, LF or NUL).
///
/// Both stacks of this package apply it; a transport of your own can too, so that it refuses what they refuse, with
/// the same codes.
public enum RequestCheck {

    /// The URL a request is sent to, once it passes the check; otherwise throws the `URLError` that refuses it, its
    /// ``TransportFailure`` naming `library`.
    public static func validate(_ request: URLRequest, library: String) throws(URLError) -> URL {
        func refusal(_ code: URLError.Code, _ reason: String) -> URLError {
            URLError(code, failure: TransportFailure(library: library, code: 0, message: reason), url: request.url)
        }
        guard let url = request.url, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else {
            throw refusal(.unsupportedURL, "unsupported URL: \(request.url?.absoluteString ?? "none"), not http or https")
        }
        guard let host = url.host, !host.isEmpty else { throw refusal(.badURL, "the URL \(url.absoluteString) has no host") }
        if let bad = request.allHTTPHeaderFields?.first(where: { !isToken($0.key) || holdsLineBreakOrNUL($0.value) }) {
            throw refusal(
                .badURL, "invalid header field \(bad.key.debugDescription): names are tokens, and no name or value may hold CR, LF or NUL")
        }
        return url
    }

    /// Whether a request may be sent again once its connection was lost with no response: its method is idempotent
    /// (RFC 9110 9.2.2; methods are case-sensitive, so `put` is not `PUT`).
    public static func mayBeSentAgain(_ request: URLRequest) -> Bool {
        ["GET", "HEAD", "OPTIONS", "TRACE", "PUT", "DELETE"].contains(request.httpMethod ?? "GET")
    }

    /// RFC 9110's `token`, what a header name is made of: visible ASCII but the delimiters.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { tokenBytes.contains($0) }
    }

    private static let tokenBytes = Set("!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".utf8)

    private static func holdsLineBreakOrNUL(_ value: String) -> Bool {
        value.utf8.contains { $0 == 0x0D || $0 == 0x0A || $0 == 0x00 }
    }
}
