import NetworkCore

/// The DNS and IP address subtrees of one CA's nameConstraints extension (RFC 5280 4.2.1.10), for checking a
/// requested host against them: path validation applies name constraints to the names in certificates only, so a
/// wildcard leaf (`*.example.com`) under a CA excluding `bar.example.com` would otherwise be accepted for
/// `bar.example.com`.
public struct NameConstraintSubtrees: Sendable, Hashable {

    /// One subtree base.
    public enum Base: Sendable, Hashable {
        /// A DNS name base, as written (`"\u{0}"` for one that is not printable ASCII).
        case dns(String)
        /// An IP address range: the network's octets and its mask (4 and 4, or 16 and 16).
        case ip(address: [UInt8], mask: [UInt8])
        /// A form this check does not read (email, URI, directory name, …), or one whose minimum or maximum breaks
        /// RFC 5280 (minimum zero, maximum absent).
        case other(wellFormed: Bool)
    }

    /// The permitted subtrees.
    public var permitted: [Base]
    /// The excluded subtrees.
    public var excluded: [Base]

    /// Creates the subtrees of a nameConstraints extension.
    public init(permitted: [Base] = [], excluded: [Base] = []) {
        self.permitted = permitted
        self.excluded = excluded
    }

    /// Whether every base is well formed.
    var isWellFormed: Bool {
        (permitted + excluded).allSatisfy { base in
            switch base {
            case .dns(let name): return DNSNameSyntax.isValidConstraint(name)
            case .ip(let address, let mask):
                return (address.count == 4 || address.count == 16) && address.count == mask.count && Self.isContiguous(mask)
            case .other(let wellFormed): return wellFormed
            }
        }
    }

    /// Whether a requested host (normalized: lowercase, no trailing dot, IPv6 without brackets) is within
    /// these subtrees: in a permitted subtree of its form if there is any, and in no excluded one.
    func permits(host: String) -> Bool {
        let address = IPAddressLiteral.bytes(of: host)
        func matches(_ base: Base) -> Bool? {
            switch (base, address) {
            case (.dns(let name), nil): return Self.dnsMatches(host, name.lowercased())
            case (.ip(let network, let mask), let bytes?) where network.count == bytes.count:
                return zip(zip(bytes, network), mask).allSatisfy { ($0.0 & $1) == ($0.1 & $1) }
            case (.ip, _?): return false
            default: return nil  // another form: says nothing about this host
            }
        }
        if excluded.contains(where: { matches($0) == true }) { return false }
        let applicable = permitted.compactMap(matches)
        return applicable.isEmpty || applicable.contains(true)
    }

    /// RFC 5280: a DNS name is within a subtree if it is the base or ends with `.` + base; a base with a
    /// leading period (an OpenSSL and X.509 usage) covers subdomains only.
    private static func dnsMatches(_ host: String, _ base: String) -> Bool {
        if base.isEmpty { return true }
        if base.hasPrefix(".") { return host.hasSuffix(base) && host.count > base.count }
        return host == base || host.hasSuffix("." + base)
    }

    private static func isContiguous(_ mask: [UInt8]) -> Bool {
        let bits: [Bool] = mask.flatMap { byte -> [Bool] in (0..<8).map { (byte & (0x80 >> $0)) != 0 } }
        return !bits.drop(while: { $0 }).contains(true)
    }
}
