/// Which HTTP versions a stack offers a server over TLS (in ALPN).
///
/// Plain-HTTP requests always use HTTP/1.1: neither stack of this package speaks HTTP/2 without TLS.
public struct HTTPVersions: Sendable, Hashable, CustomStringConvertible {
    private enum Base: Sendable, Hashable { case http1Only, http2Preferred }
    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// HTTP/1.1 only: `http/1.1` is the one protocol offered, so every server answers in HTTP/1.1.
    public static let http1Only = HTTPVersions(.http1Only)
    /// HTTP/2 when the server selects it, HTTP/1.1 otherwise (`h2,http/1.1` in ALPN), as curl and `URLSession`
    /// do. The default.
    public static let http2Preferred = HTTPVersions(.http2Preferred)

    /// The ALPN protocol names offered, most preferred first.
    public var applicationProtocols: [String] {
        switch base {
        case .http1Only: ["http/1.1"]
        case .http2Preferred: ["h2", "http/1.1"]
        }
    }

    /// `http1Only` or `http2Preferred`.
    public var description: String {
        switch base {
        case .http1Only: "http1Only"
        case .http2Preferred: "http2Preferred"
        }
    }
}
