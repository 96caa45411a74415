import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What must be refused before a byte is sent (HTTP-5, HTTP-14).
enum RequestCheck {

    /// The `URLError` that refuses the request, or `nil` when it may be sent.
    static func refusal(of request: URLRequest) -> URLError? {
        guard let url = request.url, let scheme = url.scheme?.lowercased() else {
            return TransportErrors.make(.badURL, "the request has no URL with a scheme", url: request.url)
        }
        guard scheme == "http" || scheme == "https" else {
            return TransportErrors.make(.unsupportedURL, "the scheme \(scheme) is not http or https", url: url)
        }
        guard let host = url.host, !host.isEmpty else {
            return TransportErrors.make(.badURL, "the URL has no host", url: url)
        }
        for (name, value) in request.allHTTPHeaderFields ?? [:] {
            if !isToken(name) || value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" }) {
                return TransportErrors.make(.badURL, "the header \(name.debugDescription) holds CR, LF or NUL, or is not a token", url: url)
            }
        }
        return nil
    }

    /// RFC 9110's `token`: the characters a header name may hold.
    private static func isToken(_ name: String) -> Bool {
        !name.isEmpty
            && name.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || "!#$%&'*+-.^_`|~".unicodeScalars.contains(scalar))
            }
    }
}
