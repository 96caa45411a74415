internal import COpenSSL
import NetworkCore

/// RFC 5280 4.2.1.1: an authorityKeyIdentifier carries the keyIdentifier (a self-signed root may leave the
/// extension out, not the field). The trust anchor's own extensions are not judged.
struct KeyIdentifiersRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        for certificate in chain.issued
        where X509_get_ext_by_NID(certificate.x509, NID_authority_key_identifier, -1) >= 0
            && X509_get0_authority_key_id(certificate.x509) == nil
        {
            return .refusal(
                .invalidExtension, by: .keyIdentifiers, depth: certificate.depth, "an authorityKeyIdentifier without a keyIdentifier")
        }
        return nil
    }
}
