/// A host name and port sent to an address of one's own instead of asking DNS. The URL keeps the name, so TLS sends
/// it as SNI and certificates are checked against it: how tests reach a server on loopback under a real name.
public struct HostOverride: Sendable, Hashable, CustomStringConvertible {
    /// The host name as the URL spells it (compared without case).
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

    /// `HOST:PORT:ADDRESS`, as curl's `--resolve` spells it.
    public var description: String { "\(host):\(port):\(address)" }
}
