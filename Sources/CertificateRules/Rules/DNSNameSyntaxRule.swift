import NetworkCore

/// RFC 5280 4.2.1.6 and the preferred name syntax of RFC 1034 3.5: every DNS name of the leaf's subjectAltName is
/// a host name (a wildcard only as the whole leftmost label).
struct DNSNameSyntaxRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for name in chain.leaf.subjectAltDNSNames where !(name.map(DNSNameSyntax.isValidSubjectAltName) ?? false) {
            return .refusal(
                .malformedName, by: .dnsNameSyntax, depth: 0,
                "malformed DNS name \(name.map { "'\($0)'" } ?? "(not printable ASCII)") in subjectAltName")
        }
        return nil
    }
}
