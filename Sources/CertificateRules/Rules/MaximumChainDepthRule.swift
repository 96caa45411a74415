import NetworkCore

/// No deeper chain than the configured maximum (the leaf is depth 0).
struct MaximumChainDepthRule: ChainRule {
    let maximum: Int

    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        let depth = chain.certificates.count - 1
        guard depth > maximum else { return nil }
        return .refusal(
            .chainTooDeep, by: .maximumChainDepth, depth: maximum + 1, "the chain is \(depth) deep, more than the maximum \(maximum)")
    }
}
