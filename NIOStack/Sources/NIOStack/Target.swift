import Foundation
import NetworkCore

/// Where one hop connects, and what it says on the wire: the request URL's host and port, and the address a resolve
/// override points them at.
struct Target: Sendable {
    let isTLS: Bool
    /// Lowercased, IPv6 without brackets, one trailing dot dropped: the name SNI, the certificate check and the
    /// handler see (TRUST-9).
    let host: String
    /// The host as the URL spells it, for the `Host` header.
    private let spelledHost: String
    let port: Int
    let address: String
    /// The path and query as the URL spells them, unchanged (HTTP-4).
    let requestTarget: String

    init(url: URL, overrides: [NIONetworkStack.Configuration.ResolveOverride]) {
        isTLS = url.scheme?.lowercased() == "https"
        var spelled = url.host ?? ""
        if spelled.hasPrefix("["), spelled.hasSuffix("]") { spelled = String(spelled.dropFirst().dropLast()) }
        spelledHost = spelled
        let host = HostName.normalized(spelled)
        self.host = host
        port = url.port ?? (isTLS ? 443 : 80)
        let port = self.port
        let override = overrides.first { override in
            override.port == port && [host, spelled.lowercased()].contains(override.host.lowercased())
        }
        address = override?.address ?? host
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        requestTarget = (path.isEmpty ? "/" : path) + query
    }

    var poolKey: ConnectionPool.Key { ConnectionPool.Key(isTLS: isTLS, host: host, port: port, address: address) }

    /// SNI carries names only, never an address.
    var sniName: String? { HostName.isName(host) ? host : nil }

    var hostHeader: String {
        let name = spelledHost.contains(":") ? "[\(spelledHost)]" : spelledHost
        return port == (isTLS ? 443 : 80) ? name : "\(name):\(port)"
    }
}
