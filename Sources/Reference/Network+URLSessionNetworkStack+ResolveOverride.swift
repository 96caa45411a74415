extension Network.URLSessionNetworkStack {

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
