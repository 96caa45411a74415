import Foundation

/// A request as the server received it, for the "verify" step of a test.
///
/// ``connectionIndex`` and ``exchangeIndex`` together identify the attempt: a retry on a new connection has a
/// new connection index, a request on a reused keep-alive connection has the same connection index and a
/// higher exchange index.
public struct RecordedRequest: Sendable {
    /// The method token, as sent (`GET`, `POST`, ...).
    public let method: String
    /// The raw request-target, exactly as sent (`/a?b=c`, or an absolute URI).
    public let target: String
    /// The path part of ``target``, without the query.
    public let path: String
    /// The HTTP version token, as sent (`HTTP/1.1`), or `HTTP/2` for a request on an HTTP/2 stream.
    public let version: String
    /// Header fields in the order received, duplicates kept. Over HTTP/2 the pseudo-header fields come first, as
    /// sent (`:method`, `:scheme`, `:authority`, `:path`), and names are lower case, as the protocol requires.
    public let headers: [(name: String, value: String)]
    /// The body bytes after de-chunking; empty when there was none, partial when ``failure`` is set.
    public let body: Data
    /// The sizes of the chunks when the body was chunked, in order, without the final zero-size chunk.
    public let chunkSizes: [Int]?
    /// The connection's 0-based index on this server (accept order).
    public let connectionIndex: Int
    /// The request's 0-based index on its connection.
    public let exchangeIndex: Int
    /// The SNI host name the client sent, or `nil` (no TLS, or no SNI, as for IP-literal URLs).
    public let sniName: String?
    /// The negotiated TLS version (`"TLSv1.3"`), or `nil` for plain HTTP.
    public let tlsVersion: String?
    /// Why the request is incomplete or invalid (a fault cut the body short, a malformed head), or `nil`.
    public let failure: String?
    /// The HTTP/2 stream the request came on (1, 3, 5, …), or `nil` over HTTP/1.
    public var streamID: Int? = nil

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// All values of a header, in order, compared case-insensitively.
    public func headerValues(_ name: String) -> [String] {
        headers.filter { $0.name.caseInsensitiveCompare(name) == .orderedSame }.map(\.value)
    }

    /// The body decoded as UTF-8 (lossy), for assertions.
    public var bodyText: String { String(decoding: body, as: UTF8.self) }
}

extension RecordedRequest: CustomStringConvertible {
    /// The request line and its indices, for reports.
    public var description: String {
        "\(method) \(target) \(version) [connection \(connectionIndex), exchange \(exchangeIndex)]"
            + (failure.map { " failed: \($0)" } ?? "")
    }
}
