extension Network.URLSessionNetworkStack {

    /// Which HTTP versions a stack offers a server over TLS (in ALPN).
    ///
    /// Plain-HTTP requests always use HTTP/1.1: the stack never speaks HTTP/2 without TLS.
    public struct HTTPVersions: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable { case http1Only, http2Preferred }
        let base: Base
        private init(_ base: Base) { self.base = base }

        /// HTTP/1.1 only: `http/1.1` is the one protocol offered, so every server answers in HTTP/1.1.
        public static let http1Only = HTTPVersions(.http1Only)
        /// HTTP/2 when the server selects it, HTTP/1.1 otherwise (`h2,http/1.1` in ALPN), as curl and `URLSession`
        /// do. The default.
        public static let http2Preferred = HTTPVersions(.http2Preferred)

        /// `http1Only` or `http2Preferred`.
        public var description: String {
            switch base {
            case .http1Only: "http1Only"
            case .http2Preferred: "http2Preferred"
            }
        }
    }
}
