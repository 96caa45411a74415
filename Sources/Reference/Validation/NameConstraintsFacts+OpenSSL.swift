internal import COpenSSL
internal import COpenSSLShims
import CertificateRules

extension NameConstraintsFacts {

    /// A certificate's nameConstraints as OpenSSL decodes it; `nil` if it has none.
    init?(openSSL certificate: OpaquePointer) {
        var critical: Int32 = -1
        guard let raw = X509_get_ext_d2i(certificate, NID_name_constraints, &critical, nil) else {
            // -1: absent; anything else: present but not decodable (or present twice).
            guard critical != -1 else { return nil }
            self = .malformed
            return
        }
        let constraints = raw.assumingMemoryBound(to: NAME_CONSTRAINTS.self)
        defer { NAME_CONSTRAINTS_free(constraints) }
        self = .decoded(
            NameConstraintSubtrees(
                permitted: Self.bases(constraints.pointee.permittedSubtrees), excluded: Self.bases(constraints.pointee.excludedSubtrees)))
    }

    private static func bases(_ stack: OpaquePointer?) -> [NameConstraintSubtrees.Base] {
        (0..<cshims_sk_GENERAL_SUBTREE_num(stack)).compactMap { index in
            guard let subtree = cshims_sk_GENERAL_SUBTREE_value(stack, index), let name = subtree.pointee.base else { return nil }
            // RFC 5280: minimum MUST be zero and maximum MUST be absent.
            let wellFormed = subtree.pointee.maximum == nil && (subtree.pointee.minimum.map { ASN1_INTEGER_get($0) == 0 } ?? true)
            switch name.pointee.type {
            case GEN_DNS:
                return wellFormed ? .dns(ASN1Text.string(name.pointee.d.dNSName) ?? "\u{0}") : .other(wellFormed: false)
            case GEN_IPADD:
                let bytes = ASN1Text.bytes(name.pointee.d.iPAddress)
                guard wellFormed, bytes.count == 8 || bytes.count == 32 else { return .other(wellFormed: false) }
                return .ip(address: Array(bytes[0..<bytes.count / 2]), mask: Array(bytes[(bytes.count / 2)...]))
            default:
                return .other(wellFormed: wellFormed)
            }
        }
    }
}
