import NetworkCore

/// RFC 5280 4.2.1.10 and 4.2.1.11: name and policy constraints appear only in CA certificates, are critical, and
/// name constraints have at least one well-formed subtree. The trust anchor's own extensions are not judged (its name
/// constraints still bind the host: ``NameConstraintsOnHostRule``).
struct ConstraintExtensionsRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.issued {
            if let reason = problem(certificate) {
                return .refusal(.invalidConstraints, by: .constraintExtensions, depth: certificate.depth, reason)
            }
        }
        return nil
    }

    private func problem(_ certificate: CertificateFacts) -> String? {
        let nameConstraints = certificate.criticality(of: ExtensionFacts.OID.nameConstraints)
        let policyConstraints = certificate.criticality(of: ExtensionFacts.OID.policyConstraints)
        if !certificate.isCA, !(nameConstraints.isEmpty && policyConstraints.isEmpty) {
            return "name or policy constraints in a certificate that is not a CA"
        }
        if nameConstraints.contains(false) { return "nameConstraints is not critical" }
        if policyConstraints.contains(false) { return "policyConstraints is not critical" }
        switch certificate.nameConstraints {
        case nil: return nil
        case .malformed?: return "nameConstraints cannot be decoded"
        case .decoded(let subtrees)?:
            if subtrees.permitted.isEmpty, subtrees.excluded.isEmpty {
                return "nameConstraints has neither permitted nor excluded subtrees"
            }
            return subtrees.isWellFormed ? nil : "nameConstraints has a malformed subtree"
        }
    }
}
