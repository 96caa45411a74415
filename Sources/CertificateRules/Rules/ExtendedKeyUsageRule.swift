import NetworkCore

/// CA/B Forum Baseline Requirements 7.1.2.7.10: a server certificate has a non-critical extendedKeyUsage with
/// serverAuth and without anyExtendedKeyUsage. (A root's extendedKeyUsage is the trust anchor's own extension, not
/// judged; path validation's purpose check still refuses an anchor whose extendedKeyUsage leaves out serverAuth.)
struct ExtendedKeyUsageRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        let leaf = chain.leaf
        guard let purposes = leaf.extendedKeyUsage else { return refusal("the server's certificate has no extendedKeyUsage") }
        if leaf.criticality(of: ExtensionFacts.OID.extendedKeyUsage).contains(true) {
            return refusal("the server's certificate's extendedKeyUsage is critical")
        }
        if purposes.contains(ExtensionFacts.OID.anyExtendedKeyUsage) {
            return refusal("the server's certificate allows anyExtendedKeyUsage")
        }
        if !purposes.contains(ExtensionFacts.OID.serverAuth) {
            return refusal("the server's certificate's extendedKeyUsage lacks serverAuth")
        }
        return nil
    }

    private func refusal(_ reason: String) -> ChainValidationFailure {
        .refusal(.extendedKeyUsage, by: .extendedKeyUsage, depth: 0, reason)
    }
}
