internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// The DNS and IP address subtrees of one CA's nameConstraints extension (RFC 5280 4.2.1.10), decoded for
/// checking a requested host against them: OpenSSL applies name constraints to the names in certificates
/// only, so a wildcard leaf (`*.example.com`) under a CA excluding `bar.example.com` would otherwise be
/// accepted for `bar.example.com`.
struct NameConstraintSubtrees {

    /// One subtree base.
    enum Base: Equatable {
        case dns(String)
        case ip(address: [UInt8], mask: [UInt8])
        /// A form this check does not read (email, URI, directory name, …), or a malformed one.
        case other(type: Int32, wellFormed: Bool)
    }

    var permitted: [Base] = []
    var excluded: [Base] = []
    /// Whether the extension is marked critical.
    var critical = false

    /// Decodes a certificate's nameConstraints; `nil` if it has none, and `.failure` if it has one OpenSSL
    /// cannot decode.
    static func of(_ certificate: OpaquePointer) -> Result<NameConstraintSubtrees, Malformed>? {
        var critical: Int32 = -1
        guard let raw = X509_get_ext_d2i(certificate, NID_name_constraints, &critical, nil) else {
            // -1: absent; anything else: present but not decodable (or present twice).
            return critical == -1 ? nil : .failure(Malformed())
        }
        let constraints = raw.assumingMemoryBound(to: NAME_CONSTRAINTS.self)
        defer { NAME_CONSTRAINTS_free(constraints) }
        var subtrees = NameConstraintSubtrees()
        subtrees.critical = critical == 1
        subtrees.permitted = bases(constraints.pointee.permittedSubtrees)
        subtrees.excluded = bases(constraints.pointee.excludedSubtrees)
        return .success(subtrees)
    }

    /// A nameConstraints extension that cannot be decoded.
    struct Malformed: Error {}

    /// Whether every base is well formed.
    var isWellFormed: Bool {
        (permitted + excluded).allSatisfy { base in
            switch base {
            case .dns(let name): return DNSNameSyntax.isValidConstraint(name)
            case .ip(let address, let mask): return address.count == mask.count && Self.isContiguous(mask)
            case .other(_, let wellFormed): return wellFormed
            }
        }
    }

    /// Whether a requested host (normalized: lowercase, no trailing dot, IPv6 without brackets) is within
    /// these subtrees: in a permitted subtree of its form if there is any, and in no excluded one.
    func permits(host: String) -> Bool {
        let address = HostName.addressBytes(host)
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

    private static func bases(_ stack: OpaquePointer?) -> [Base] {
        (0..<cshims_sk_GENERAL_SUBTREE_num(stack)).compactMap { index in
            guard let subtree = cshims_sk_GENERAL_SUBTREE_value(stack, index), let name = subtree.pointee.base else { return nil }
            // RFC 5280: minimum MUST be zero and maximum MUST be absent.
            let wellFormed = subtree.pointee.maximum == nil && (subtree.pointee.minimum.map { ASN1_INTEGER_get($0) == 0 } ?? true)
            switch name.pointee.type {
            case GEN_DNS:
                let text = ProfileCertificate.string(name.pointee.d.dNSName)
                return wellFormed ? .dns(text ?? "\u{0}") : .other(type: GEN_DNS, wellFormed: false)
            case GEN_IPADD:
                let bytes = ProfileCertificate.bytes(name.pointee.d.iPAddress)
                guard wellFormed, bytes.count == 8 || bytes.count == 32 else { return .other(type: GEN_IPADD, wellFormed: false) }
                return .ip(address: Array(bytes[0..<bytes.count / 2]), mask: Array(bytes[(bytes.count / 2)...]))
            default:
                return .other(type: name.pointee.type, wellFormed: wellFormed)
            }
        }
    }
}
