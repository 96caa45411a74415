import NetworkCore

/// CA/B Forum Baseline Requirements 3.2.2.6: no wildcard covers a whole public suffix (`*.co.uk`). Fails closed
/// when no public suffix list can be loaded.
struct PublicSuffixWildcardRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for case let name? in chain.leaf.subjectAltDNSNames where name.hasPrefix("*.") {
            let base = String(name.dropFirst(2)).lowercased()
            guard let isPublic = PublicSuffixList.isPublicSuffix(base) else {
                return refusal("no public suffix list to check the wildcard '\(name)' against")
            }
            if isPublic { return refusal("the wildcard '\(name)' covers the public suffix \(base)") }
        }
        return nil
    }

    private func refusal(_ reason: String) -> ChainValidationFailure {
        .refusal(.publicSuffixWildcard, by: .publicSuffixWildcard, depth: 0, reason)
    }
}
