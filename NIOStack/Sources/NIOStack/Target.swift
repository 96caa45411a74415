import Foundation

/// Where one hop connects, and what it says on the wire: the request URL's host and port, and the address a resolve
/// override points them at.
struct Target: Sendable {
    let isTLS: Bool
    /// Lowercased, IPv6 without brackets.
    let host: String
    let port: Int
    let address: String
    /// The path and query as the URL spells them, unchanged (HTTP-4).
    let requestTarget: String

    init(url: URL, overrides: [NIONetworkStack.Configuration.ResolveOverride]) {
        isTLS = url.scheme?.lowercased() == "https"
        var host = (url.host ?? "").lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        self.host = host
        port = url.port ?? (isTLS ? 443 : 80)
        let port = self.port
        address = overrides.first { $0.host.lowercased() == host && $0.port == port }?.address ?? host
        let components = URLComponents(url: url, resolvingAgainstBaseURL: true)
        let path = components?.percentEncodedPath ?? ""
        let query = components?.percentEncodedQuery.map { "?\($0)" } ?? ""
        requestTarget = (path.isEmpty ? "/" : path) + query
    }

    var isIPLiteral: Bool { host.contains(":") || host.allSatisfy { $0.isNumber || $0 == "." } }

    /// SNI carries names only, never an address.
    var sniName: String? { isIPLiteral ? nil : host }

    var hostHeader: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return port == (isTLS ? 443 : 80) ? name : "\(name):\(port)"
    }
}
