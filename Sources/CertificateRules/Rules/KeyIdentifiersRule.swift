import NetworkCore

/// RFC 5280 4.2.1.1: an authorityKeyIdentifier carries the keyIdentifier (a self-signed root may leave the
/// extension out, not the field). The trust anchor's own extensions are not judged.
struct KeyIdentifiersRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.issued where certificate.authorityKeyIdentifierHasKeyIdentifier == false {
            return .refusal(
                .invalidExtension, by: .keyIdentifiers, depth: certificate.depth, "an authorityKeyIdentifier without a keyIdentifier")
        }
        return nil
    }
}
