import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which `3xx` responses a stack follows, and how (HTTP-9 to HTTP-14, HTTP-19, HTTP-20). The NIO stack decides each
/// redirect with ``decide(status:location:request:redirects:maximum:library:)``; the reference stack has libcurl follow
/// them, set from ``isFollowed(method:)`` and ``schemes(from:)``.
public enum RedirectRule {

    /// URLSession's limit: the 17th redirect in a row fails the fetch.
    public static let defaultMaximum = 16

    /// What to do with a response.
    public enum Decision: Sendable {
        /// The response is the final one.
        case deliver
        /// Send this request next.
        case follow(URLRequest)
        /// The redirect must not be followed, and the fetch fails.
        case refuse(URLError)
    }

    /// Whether a request's redirects are followed: a custom method (`PUT`, `DELETE`, …) sees its `3xx`, rather than
    /// being sent again somewhere else.
    public static func isFollowed(method: String) -> Bool { ["GET", "HEAD", "POST"].contains(method) }

    /// The schemes a redirect from `scheme` may lead to: only HTTP, and never from `https` to a weaker one (a plain hop
    /// would skip the trust check and send the request's headers, and a `307` or `308` body, in clear text).
    public static func schemes(from scheme: String) -> [String] { scheme.lowercased() == "https" ? ["https"] : ["http", "https"] }

    /// What to do with a response to `request`, after `redirects` redirects were followed already; at most `maximum`
    /// are followed in a row (``RedirectPolicy/maximum``), and with 0 none is: the `3xx` is the response. A refusal's
    /// `TransportFailure` names `library`.
    public static func decide(
        status: Int, location: String?, request: URLRequest, redirects: Int, maximum: Int = defaultMaximum, library: String
    ) -> Decision {
        let method = request.httpMethod ?? "GET"
        guard maximum > 0, (300...399).contains(status), status != 304, status != 300, let location, let current = request.url,
            isFollowed(method: method)
        else { return .deliver }
        func refusal(_ code: URLError.Code, _ reason: String, url: URL) -> Decision {
            .refuse(URLError(code, failure: TransportFailure(library: library, code: 0, message: reason), url: url))
        }
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL, let scheme = target.scheme?.lowercased() else {
            return refusal(.badURL, "the redirect's Location \(location.debugDescription) is not a URL", url: current)
        }
        guard schemes(from: current.scheme ?? "http").contains(scheme) else {
            let from = current.scheme?.lowercased() ?? "http"
            return refusal(.unsupportedURL, "a redirect from \(from) to \(scheme) is never followed", url: target)
        }
        guard redirects < maximum else {
            return refusal(.httpTooManyRedirects, "more than \(maximum) redirects in a row", url: target)
        }
        var next = request
        next.url = target
        // A 303 (and, as URLSession does, a 301 or 302 after a POST) turns into a GET without the body; 307 and 308 keep both.
        if status == 303 && method != "HEAD" || (status == 301 || status == 302) && method == "POST" {
            next.httpMethod = "GET"
            next.httpBody = nil
            for name in ["Content-Type", "Content-Length", "Transfer-Encoding"] { next.setValue(nil, forHTTPHeaderField: name) }
        }
        // Credentials are the origin's: another scheme, host or port gets none of them (HTTP-20).
        if origin(of: target) != origin(of: current) {
            for name in ["Authorization", "Cookie"] { next.setValue(nil, forHTTPHeaderField: name) }
        }
        return .follow(next)
    }

    /// The scheme, host and port a URL leads to, the port made explicit.
    private static func origin(of url: URL) -> [String] {
        let scheme = url.scheme?.lowercased() ?? ""
        let port = url.port ?? (scheme == "https" ? 443 : 80)
        return [scheme, url.host?.lowercased() ?? "", String(port)]
    }
}
