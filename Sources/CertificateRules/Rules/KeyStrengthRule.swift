import NetworkCore

/// CA/B Forum Baseline Requirements 6.1.5 (RFC 8410 for EdDSA): RSA of at least 2048 bits in whole octets, or
/// P-256, P-384, P-521, Ed25519, Ed448.
struct KeyStrengthRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.certificates {
            if let problem = Self.problem(certificate.publicKey) {
                return .refusal(.forbiddenKey, by: .keyStrength, depth: certificate.depth, problem)
            }
        }
        return nil
    }

    /// Why a key is not allowed, or `nil`.
    static func problem(_ key: PublicKeyFacts) -> String? {
        switch key {
        case .rsa(let bits):
            if bits < 2048 { return "RSA key of \(bits) bits (at least 2048)" }
            if bits % 8 != 0 { return "RSA modulus of \(bits) bits (not a multiple of 8)" }
            return nil
        case .ec(nil): return "EC key on an unnamed curve"
        case .ec(let curve?):
            return ["prime256v1", "secp384r1", "secp521r1"].contains(curve) ? nil : "EC key on \(curve) (P-256, P-384 or P-521 only)"
        case .ed25519, .ed448: return nil
        case .dsa: return "DSA key"
        case .other(let algorithm): return "key algorithm \(algorithm)"
        case .unreadable: return "unreadable public key"
        }
    }
}
