import CertificateRules
import SwiftASN1
import X509

extension CertificateFacts {

    /// The nameConstraints extension read from its DER, distances included (swift-certificates drops them).
    static func nameConstraints(_ ext: Certificate.Extension) -> NameConstraintsFacts {
        guard let root = try? DER.parse(ext.value),
            let subtrees = try? DER.sequence(
                root, identifier: .sequence,
                { nodes -> NameConstraintSubtrees in
                    let permitted = try DER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) {
                        try bases($0)
                    }
                    let excluded = try DER.optionalImplicitlyTagged(&nodes, tagNumber: 1, tagClass: .contextSpecific) {
                        try bases($0)
                    }
                    return NameConstraintSubtrees(permitted: permitted ?? [], excluded: excluded ?? [])
                })
        else { return .malformed }
        return .decoded(subtrees)
    }

    private static func bases(_ node: ASN1Node) throws -> [NameConstraintSubtrees.Base] {
        guard case .constructed(let subtrees) = node.content else { throw ASN1Error.invalidASN1Object(reason: "GeneralSubtrees") }
        return try subtrees.map { subtree in
            try DER.sequence(subtree, identifier: .sequence) { nodes in
                guard let nameNode = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "GeneralSubtree") }
                // Read as the subjectAltName's names are, and as OpenSSL reads them: a DNS base outside IA5 is a name the
                // rules refuse, not an undecodable extension.
                guard isWellFormedGeneralName(nameNode) else {
                    throw ASN1Error.invalidASN1Object(reason: "GeneralName")
                }
                // RFC 5280: minimum MUST be zero and maximum MUST be absent.
                let minimum = try DER.optionalImplicitlyTagged(&nodes, tagNumber: 0, tagClass: .contextSpecific) {
                    try Int(derEncoded: $0, withIdentifier: $0.identifier)
                }
                let hasMaximum = nodes.next() != nil
                let wellFormed = (minimum ?? 0) == 0 && !hasMaximum
                switch (nameNode.identifier.tagNumber, nameNode.content) {
                case (2, .primitive(let text)):
                    let name = text.allSatisfy { (0x21...0x7e).contains($0) } ? String(decoding: text, as: UTF8.self) : "\u{0}"
                    return wellFormed ? .dns(name) : .other(wellFormed: false)
                case (7, .primitive(let octets)):
                    let bytes = Array(octets)
                    guard wellFormed, bytes.count == 8 || bytes.count == 32 else { return .other(wellFormed: false) }
                    return .ip(address: Array(bytes[0..<bytes.count / 2]), mask: Array(bytes[(bytes.count / 2)...]))
                default: return .other(wellFormed: wellFormed)
                }
            }
        }
    }
}
