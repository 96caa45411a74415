internal import COpenSSL
import NetworkCore

/// RFC 5280 4.2.1.10 and 4.2.1.11: name and policy constraints appear only in CA certificates, are critical, and
/// name constraints have at least one well-formed subtree. The trust anchor's own extensions are not judged (its name
/// constraints still bind the host: ``NameConstraintsOnHostRule``).
struct ConstraintExtensionsRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        for certificate in chain.issued {
            if let reason = problem(certificate) {
                return .refusal(.invalidConstraints, by: .constraintExtensions, depth: certificate.depth, reason)
            }
        }
        return nil
    }

    private func problem(_ certificate: ProfileCertificate) -> String? {
        let nameConstraints = certificate.criticality(of: NID_name_constraints)
        let policyConstraints = certificate.criticality(of: NID_policy_constraints)
        if !certificate.isCA, !(nameConstraints.isEmpty && policyConstraints.isEmpty) {
            return "name or policy constraints in a certificate that is not a CA"
        }
        if nameConstraints.contains(false) { return "nameConstraints is not critical" }
        if policyConstraints.contains(false) { return "policyConstraints is not critical" }
        switch NameConstraintSubtrees.of(certificate.x509) {
        case nil: return nil
        case .failure?: return "nameConstraints cannot be decoded"
        case .success(let subtrees)?:
            if subtrees.permitted.isEmpty, subtrees.excluded.isEmpty {
                return "nameConstraints has neither permitted nor excluded subtrees"
            }
            return subtrees.isWellFormed ? nil : "nameConstraints has a malformed subtree"
        }
    }
}
