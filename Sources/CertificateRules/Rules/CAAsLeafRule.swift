import NetworkCore

/// A server's certificate is not a CA certificate.
struct CAAsLeafRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        guard chain.leaf.isCA else { return nil }
        return .refusal(.caUsedAsLeaf, by: .caAsLeaf, depth: 0, "the server's certificate is a CA certificate (basicConstraints cA=TRUE)")
    }
}
