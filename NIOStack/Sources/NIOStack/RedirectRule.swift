import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Which `3xx` responses are followed, and how (HTTP-9 to HTTP-14, HTTP-19, HTTP-20).
enum RedirectRule {

    /// URLSession's limit: the 17th redirect in a row fails the fetch.
    static let maximumRedirects = 16

    enum Decision {
        /// The response is the final one.
        case deliver
        /// Send this request next.
        case follow(URLRequest)
        /// The redirect must not be followed, and the fetch fails.
        case refuse(URLError)
    }

    /// What to do with a response to `request`, after `redirects` redirects were followed already.
    static func decide(status: Int, location: String?, request: URLRequest, redirects: Int) -> Decision {
        let method = (request.httpMethod ?? "GET").uppercased()
        guard (300...399).contains(status), status != 304, status != 300, let location, let current = request.url,
            ["GET", "HEAD", "POST"].contains(method)
        else { return .deliver }
        guard let target = URL(string: location, relativeTo: current)?.absoluteURL, let scheme = target.scheme?.lowercased() else {
            return .refuse(TransportErrors.make(.badURL, "the redirect's Location \(location.debugDescription) is not a URL", url: current))
        }
        guard scheme == "http" || scheme == "https" else {
            return .refuse(TransportErrors.make(.unsupportedURL, "a redirect to the scheme \(scheme) is never followed", url: target))
        }
        if current.scheme?.lowercased() == "https", scheme != "https" {
            return .refuse(TransportErrors.make(.unsupportedURL, "a redirect from https to \(scheme) is never followed", url: target))
        }
        guard redirects < maximumRedirects else {
            return .refuse(TransportErrors.make(.httpTooManyRedirects, "more than \(maximumRedirects) redirects in a row", url: target))
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
