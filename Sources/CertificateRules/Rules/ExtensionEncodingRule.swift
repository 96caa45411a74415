import NetworkCore

/// RFC 5280 4.2: no extension appears twice in a certificate, and each one is encoded as its definition says,
/// including the sequences defined as never empty (authorityInfoAccess, cRLDistributionPoints,
/// certificatePolicies). Path validation skips an extension it cannot decode unless it needs it, so a certificate
/// with a broken one verifies. The trust anchor's own extensions are not judged.
struct ExtensionEncodingRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.issued {
            var seen: Set<String> = []
            for ext in certificate.extensions {
                guard seen.insert(ext.oid).inserted else { return refusal(certificate, "the extension \(ext.displayName) appears twice") }
                if !ext.isWellFormed { return refusal(certificate, "the extension \(ext.displayName) is malformed or empty") }
            }
        }
        return nil
    }

    private func refusal(_ certificate: CertificateFacts, _ reason: String) -> ChainValidationFailure {
        .refusal(.invalidExtension, by: .extensionEncoding, depth: certificate.depth, reason)
    }
}
