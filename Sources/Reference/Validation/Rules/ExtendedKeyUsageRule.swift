internal import COpenSSL
import NetworkCore

/// CA/B Forum Baseline Requirements 7.1.2.7.10: a server certificate has a non-critical extendedKeyUsage with
/// serverAuth and without anyExtendedKeyUsage. (A root's extendedKeyUsage is the trust anchor's own extension, not
/// judged; OpenSSL's purpose check still refuses an anchor whose extendedKeyUsage leaves out serverAuth.)
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
        return nil
    }

    private func refusal(_ depth: Int, _ reason: String) -> ChainValidationFailure {
        .refusal(.extendedKeyUsage, by: .extendedKeyUsage, depth: depth, reason)
    }
}
