extension Network.URLSessionNetworkStack {

    /// Which redirects a stack follows.
    public struct RedirectPolicy: Sendable, Hashable {
        /// The most redirects followed in a row; 0 follows none.
        public let maximum: Int

        /// Follows up to `maximum` redirects in a row; one more fails the fetch with
        /// `URLError.httpTooManyRedirects`. A negative maximum is taken as 0.
        public static func follow(maximum: Int) -> RedirectPolicy { RedirectPolicy(maximum: max(0, maximum)) }

        /// Follows no redirect: a 3xx response is returned as `Network/URLSessionError/http(_:_:_:)`.
        public static let never = RedirectPolicy(maximum: 0)

        /// Whether any redirect is followed.
        public var follows: Bool { maximum > 0 }
    }

    /// An address to connect to for a host name and port, instead of asking DNS.
    public struct ResolveOverride: Sendable, Hashable {
        /// The host name as the URL has it (compared without case).
        public var host: String
        /// The port as the URL has it (443 for `https` without one).
        public var port: Int
        /// The IPv4 or IPv6 address to connect to.
        public var address: String

        /// Sends connections for `host` on `port` to `address`.
        public init(host: String, port: Int, address: String) {
            self.host = host
            self.port = port
            self.address = address
        }

        /// The entry in libcurl's `HOST:PORT:ADDRESS` form (an IPv6 address in brackets).
        var curlEntry: String {
            "\(host):\(port):\(address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address)"
        }
    }
}
