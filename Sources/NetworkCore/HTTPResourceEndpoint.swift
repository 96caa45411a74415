import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// An HTTP endpoint of an API: typically an `enum` whose cases are the endpoints.
///
/// Only `method` and `baseURL` are required; the default ``makeRequest()`` composes the rest.
public protocol HTTPResourceEndpoint: Sendable {

    /// The request method.
    var method: HTTP.Method { get }

    /// The URL that `path` and `queryItems` are added to.
    var baseURL: URL { get }

    /// Appended to the base URL's path as it is (no separator is added; `//` is then collapsed to `/`).
    var path: String? { get }

    /// Appended after the base URL's own query items.
    var queryItems: [URLQueryItem]? { get }

    /// The request's header fields; they replace any others.
    var headers: HTTP.Headers? { get }

    /// The request body. Called last, after the URL has been composed.
    func makeBody() throws -> Data?

    /// Makes the request.
    ///
    /// - Throws: ``HTTPResourceEndpointError`` if no URL can be formed, or what ``makeBody()`` throws.
    func makeRequest() throws -> URLRequest
}

/// Why an endpoint could not make its request.
public struct HTTPResourceEndpointError: Error, Hashable, CustomStringConvertible {

    /// The base URL of the endpoint.
    public let baseURL: URL

    /// The path that was appended, if any.
    public let path: String?

    /// What went wrong.
    public let reason: String

    public var description: String {
        "cannot form a URL from base \(baseURL.absoluteString) and path \(path.map { "'\($0)'" } ?? "nil"): \(reason)"
    }
}

extension HTTPResourceEndpoint {

    public var path: String? { nil }
    public var queryItems: [URLQueryItem]? { nil }
    public var headers: HTTP.Headers? { nil }
    public func makeBody() throws -> Data? { nil }

    public func makeRequest() throws -> URLRequest {
        guard var components = URLComponents(url: baseURL, resolvingAgainstBaseURL: false) else {
            throw HTTPResourceEndpointError(baseURL: baseURL, path: path, reason: "the base URL has no valid components")
        }
        if let queryItems {
            components.queryItems = (components.queryItems ?? []) + queryItems
        }
        if let path {
            components.path = (components.path + path).replacingOccurrences(of: "//", with: "/")
        }
        guard let url = components.url else {
            throw HTTPResourceEndpointError(
                baseURL: baseURL, path: path,
                reason: "the resulting path must start with '/' when the URL has a host")
        }
        var request = URLRequest(url: url)
        request.httpMethod = method.rawValue
        request.allHTTPHeaderFields = headers
        request.httpBody = try makeBody()
        return request
    }
}
