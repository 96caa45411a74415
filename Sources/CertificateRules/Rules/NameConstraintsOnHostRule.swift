import NetworkCore

/// RFC 5280 4.2.1.10 applied to the name asked for, not only to the names in the certificates: a wildcard leaf
/// cannot carry a host that a CA's constraints exclude.
struct NameConstraintsOnHostRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.certificates.dropFirst() {
            switch certificate.nameConstraints {
            case nil:
                continue
            case .malformed?:
                return .refusal(
                    .invalidConstraints, by: .nameConstraintsOnHost, depth: certificate.depth, "nameConstraints cannot be decoded")
            case .decoded(let subtrees)?:
                guard subtrees.permits(host: chain.host) else {
                    return .refusal(
                        .nameConstraintViolation, by: .nameConstraintsOnHost, depth: 0,
                        "the requested host \(chain.host) is outside the name constraints of the CA at depth \(certificate.depth)")
                }
            }
        }
        return nil
    }
}
