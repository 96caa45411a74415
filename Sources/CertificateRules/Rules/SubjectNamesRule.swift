import NetworkCore

/// CA/B Forum Baseline Requirements 7.1.4.3: a server certificate's commonName, if any, is one of its subjectAltName
/// entries, in the same form (a DNS name as written there, an IP address as its canonical text: IPv4 dotted-decimal,
/// IPv6 as RFC 5952 writes it, so `0:0:0:0:0:0:0:1` is not the text of `::1`); 7.1.2.7.12 and RFC 5280
/// 4.2.1.6: the subjectAltName is critical only when the subject is empty.
///
/// A leaf without a subjectAltName is left to the host-name check, which never reads the commonName.
struct SubjectNamesRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        let leaf = chain.leaf
        let criticality = leaf.criticality(of: ExtensionFacts.OID.subjectAltName)
        guard !criticality.isEmpty else { return nil }
        if criticality.contains(true), !leaf.subjectIsEmpty {
            return .refusal(
                .invalidExtension, by: .subjectNames, depth: 0, "the subjectAltName is critical though the subject is not empty")
        }
        let dnsNames = Set(leaf.subjectAltDNSNames.compactMap { $0 })
        let addresses = Set(leaf.subjectAltIPAddresses.compactMap(IPAddressLiteral.canonicalText(of:)))
        for commonName in leaf.subjectCommonNames {
            guard let commonName else {
                return .refusal(.commonNameNotInSubjectAltName, by: .subjectNames, depth: 0, "the subject commonName is not text")
            }
            let listed = IPAddressLiteral.bytes(of: commonName) != nil ? addresses.contains(commonName) : dnsNames.contains(commonName)
            if !listed {
                return .refusal(
                    .commonNameNotInSubjectAltName, by: .subjectNames, depth: 0,
                    "the subject commonName '\(commonName)' is not one of the subjectAltName entries")
            }
        }
        return nil
    }
}
