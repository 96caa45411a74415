internal import COpenSSL
import NetworkCore

/// CA/B Forum Baseline Requirements 7.1.2.7.10: a server certificate has a non-critical extendedKeyUsage with
/// serverAuth and without anyExtendedKeyUsage; 7.1.2.1.2: a root has no extendedKeyUsage.
struct ExtendedKeyUsageRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        let leaf = chain.leaf
        if !leaf.hasExtendedKeyUsage { return refusal(0, "the server's certificate has no extendedKeyUsage") }
        if leaf.criticality(of: NID_ext_key_usage).contains(true) {
            return refusal(0, "the server's certificate's extendedKeyUsage is critical")
        }
        if leaf.extendedKeyUsage & UInt32(XKU_ANYEKU) != 0 { return refusal(0, "the server's certificate allows anyExtendedKeyUsage") }
        if leaf.extendedKeyUsage & UInt32(XKU_SSL_SERVER) == 0 {
            return refusal(0, "the server's certificate's extendedKeyUsage lacks serverAuth")
        }
        if chain.certificates.count > 1, let root = chain.certificates.last, root.hasExtendedKeyUsage {
            return refusal(root.depth, "the root has an extendedKeyUsage")
        }
        return nil
    }

    private func refusal(_ depth: Int, _ reason: String) -> ChainValidationFailure {
        .refusal(.extendedKeyUsage, by: .extendedKeyUsage, depth: depth, reason)
    }
}
