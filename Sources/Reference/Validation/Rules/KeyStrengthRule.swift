import NetworkCore

/// CA/B Forum Baseline Requirements 6.1.5 (RFC 8410 for EdDSA): RSA of at least 2048 bits in whole octets, or
/// P-256, P-384, P-521, Ed25519, Ed448.
struct KeyStrengthRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        for certificate in chain.certificates {
            if let problem = certificate.keyProblem { return .refusal(.forbiddenKey, by: .keyStrength, depth: certificate.depth, problem) }
        }
        return nil
    }
}
