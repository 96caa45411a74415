import CertificateRules

/// A chain that passes every rule of the strict profile, as facts, for the tests to break one fact at a time.
enum ChainFactsExamples {

    static let leaf = CertificateFacts(
        depth: 0, serialNumber: [0x01, 0x02], publicKey: .ec(curve: "prime256v1"),
        extensions: [
            ExtensionFacts(oid: ExtensionFacts.OID.subjectAltName), ExtensionFacts(oid: ExtensionFacts.OID.extendedKeyUsage),
            ExtensionFacts(oid: "2.5.29.35"),
        ],
        extendedKeyUsage: [ExtensionFacts.OID.serverAuth], authorityKeyIdentifierHasKeyIdentifier: true,
        subjectCommonNames: ["api.example.com"], subjectAltDNSNames: ["api.example.com", "*.example.com"])

    static let intermediate = CertificateFacts(
        depth: 1, isCA: true, serialNumber: [0x10], publicKey: .rsa(bits: 2048),
        extensions: [ExtensionFacts(oid: "2.5.29.19", isCritical: true), ExtensionFacts(oid: "2.5.29.35")],
        authorityKeyIdentifierHasKeyIdentifier: true, subjectCommonNames: ["Example Issuing CA"])

    static let root = CertificateFacts(
        depth: 2, isCA: true, serialNumber: [0x00], publicKey: .ec(curve: "secp384r1"),
        extensions: [ExtensionFacts(oid: "2.5.29.19", isCritical: true)], subjectCommonNames: ["Example Root"])

    /// The chain for `api.example.com`, with one certificate changed.
    static func chain(
        host: String = "api.example.com", anchorIsPublic: Bool = true, leaf: CertificateFacts = leaf,
        intermediate: CertificateFacts = intermediate, root: CertificateFacts = root
    ) -> ChainFacts {
        ChainFacts(certificates: [leaf, intermediate, root], host: host, anchorIsPublic: anchorIsPublic)!
    }

    /// The example leaf with one change.
    static func leaf(_ change: (inout CertificateFacts) -> Void) -> CertificateFacts {
        var facts = leaf
        change(&facts)
        return facts
    }

    /// The example intermediate with one change.
    static func intermediate(_ change: (inout CertificateFacts) -> Void) -> CertificateFacts {
        var facts = intermediate
        change(&facts)
        return facts
    }

    /// The example root with one change.
    static func root(_ change: (inout CertificateFacts) -> Void) -> CertificateFacts {
        var facts = root
        change(&facts)
        return facts
    }
}
