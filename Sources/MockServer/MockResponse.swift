import Foundation

/// A scripted response: what the server sends for one request, including latency, an optional
/// ``Malformation`` of its own bytes and an optional ``MockFault`` on the connection around it.
///
/// A value type with defaults that make the common case short: `MockResponse()` is `200 OK` with an empty body
/// and `Content-Length: 0`. Derive variants with ``with(_:)``.
///
/// A malformation and a fault compose: the fault's trigger says when its effect happens to the connection, and
/// the response that goes out, if any, has the malformation's shape. A fault that fires before the response
/// (``MockFault/Trigger/afterRequest`` or earlier) sends none of it, unless its effect is
/// ``MockFault/Effect/respond``, which sends it early, malformed; a fault on a response trigger cuts the malformed
/// bytes where it says and replaces the malformation's close with its own effect.
///
/// The server adds `Content-Length` (or `Transfer-Encoding: chunked` when ``chunked`` is set) unless
/// ``headers`` already has one: write your own to lie about the length on purpose.
public struct MockResponse: Sendable {
    /// Bytes per interval, to simulate a slow server.
    public struct Throttle: Sendable, Hashable {
        /// How many bytes to write at once.
        public var bytes: Int
        /// How long to wait between two writes.
        public var interval: Duration
        /// Creates a throttle of `bytes` per `interval`.
        public init(bytes: Int, per interval: Duration) {
            self.bytes = max(1, bytes)
            self.interval = interval
        }
    }

    /// The status code, sent as is (no range check, so `999` works).
    public var status: Int
    /// The reason phrase; defaults to the standard phrase for ``status``.
    public var reason: String
    /// Header fields in sending order; duplicates are sent as duplicates.
    public var headers: [(name: String, value: String)]
    /// The body bytes (before chunked encoding).
    public var body: Data
    /// When set, the body is sent with `Transfer-Encoding: chunked` in chunks of these sizes; the last size repeats
    /// until the body is exhausted, and sizes that are zero or negative are skipped.
    public var chunked: [Int]?
    /// Scripted latency before the status line is sent (sleeps on the connection's thread; shutdown cuts it short).
    public var headDelay: Duration?
    /// Write the response (head and body) at this pace.
    public var throttle: Throttle?
    /// Send `Connection: close` and close the connection after the response.
    public var closeConnection: Bool
    /// The response's own bytes broken on purpose (a bad status line, bad framing, no response at all).
    public var malformation: Malformation?
    /// What happens to the connection instead of, or while, sending this response.
    public var fault: MockFault?
    /// Send the body with neither `Content-Length` nor chunked encoding, ended by closing the connection
    /// (HTTP/1.0 style). With ``MockFault/closeWithoutCloseNotify`` a TLS client cannot tell the end from a
    /// truncation. Set it with ``with(_:)``.
    public var closeDelimited: Bool = false
    /// Interim `1xx` responses sent before this one (only their status, reason and headers are used; their
    /// malformation and fault are ignored), such as
    /// `103 Early Hints`. Set it with ``with(_:)``.
    public var informational: [MockResponse] = []

    /// Creates a response.
    ///
    /// - Parameters:
    ///   - status: The status code (default 200).
    ///   - reason: The reason phrase; `nil` picks the standard phrase.
    ///   - headers: Header fields in order; duplicates allowed.
    ///   - body: The body bytes.
    ///   - chunked: Chunk sizes to send the body with chunked encoding; `nil` uses `Content-Length`.
    ///   - headDelay: Latency before the head.
    ///   - throttle: Bytes per interval for the whole response.
    ///   - closeConnection: Close the connection after this response.
    ///   - malformation: A shape no correct server sends; see ``Malformation``.
    ///   - fault: What happens to the connection; see ``MockFault`` for when each one fires.
    public init(
        status: Int = 200,
        reason: String? = nil,
        headers: [(name: String, value: String)] = [],
        body: Data = Data(),
        chunked: [Int]? = nil,
        headDelay: Duration? = nil,
        throttle: Throttle? = nil,
        closeConnection: Bool = false,
        malformation: Malformation? = nil,
        fault: MockFault? = nil
    ) {
        self.status = status
        self.reason = reason ?? MockResponse.standardReason(for: status)
        self.headers = headers
        self.body = body
        self.chunked = chunked
        self.headDelay = headDelay
        self.throttle = throttle
        self.closeConnection = closeConnection
        self.malformation = malformation
        self.fault = fault
    }

    /// Creates a response from a dictionary of headers (sent sorted by name, so the order is stable).
    public init(
        status: Int = 200,
        reason: String? = nil,
        headers: [String: String],
        body: Data = Data(),
        chunked: [Int]? = nil,
        headDelay: Duration? = nil,
        throttle: Throttle? = nil,
        closeConnection: Bool = false,
        malformation: Malformation? = nil,
        fault: MockFault? = nil
    ) {
        self.init(
            status: status, reason: reason,
            headers: headers.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            body: body, chunked: chunked, headDelay: headDelay, throttle: throttle,
            closeConnection: closeConnection, malformation: malformation, fault: fault)
    }

    /// Creates a response that exists only to carry a fault (for example ``MockFault/resetAtAccept``).
    public static func fault(_ fault: MockFault) -> MockResponse { MockResponse(fault: fault) }

    /// Creates a `200` with an empty body in this malformed shape, for the malformations that need no content
    /// (for example ``Malformation/garbageThenClose(_:)``).
    public static func malformed(_ malformation: Malformation) -> MockResponse { MockResponse(malformation: malformation) }

    /// Returns a copy changed by `change`, so a base response can be reused: `base.with { $0.status = 503 }`.
    public func with(_ change: (inout MockResponse) -> Void) -> MockResponse {
        var copy = self
        change(&copy)
        return copy
    }

    /// The first value of a header, compared case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// The standard reason phrase of a status code, or `"Mock"` when there is none.
    public static func standardReason(for status: Int) -> String {
        switch status {
        case 100: "Continue"
        case 101: "Switching Protocols"
        case 103: "Early Hints"
        case 200: "OK"
        case 201: "Created"
        case 202: "Accepted"
        case 204: "No Content"
        case 206: "Partial Content"
        case 301: "Moved Permanently"
        case 302: "Found"
        case 303: "See Other"
        case 304: "Not Modified"
        case 307: "Temporary Redirect"
        case 308: "Permanent Redirect"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 408: "Request Timeout"
        case 409: "Conflict"
        case 410: "Gone"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 417: "Expectation Failed"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 501: "Not Implemented"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "Mock"
        }
    }
}

extension MockResponse: CustomStringConvertible {
    /// A one-line summary for reports: status, body size, malformation and fault.
    public var description: String {
        var text = "\(status) \(reason), \(body.count) body bytes"
        if let malformation { text += ", malformed \(malformation)" }
        if let fault { text += ", fault \(fault)" }
        return text
    }
}
