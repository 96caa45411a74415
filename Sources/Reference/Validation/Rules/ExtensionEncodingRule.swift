internal import COpenSSL
internal import COpenSSLShims
import NetworkCore

/// RFC 5280 4.2: no extension appears twice in a certificate, and each one is encoded as its definition says,
/// including the sequences defined as never empty (authorityInfoAccess, cRLDistributionPoints,
/// certificatePolicies). OpenSSL skips an extension it cannot decode unless it needs it, so a certificate with a
/// broken one verifies. The trust anchor's own extensions are not judged.
struct ExtensionEncodingRule: ChainRule {
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure? {
        for certificate in chain.issued {
            var seen: Set<String> = []
            for index in 0..<X509_get_ext_count(certificate.x509) {
                guard let ext = X509_get_ext(certificate.x509, index) else { continue }
                let name = Self.name(of: X509_EXTENSION_get_object(ext))
                guard seen.insert(name).inserted else { return refusal(certificate, "the extension \(name) appears twice") }
                if cshims_X509_EXTENSION_decodes(ext) == 0 { return refusal(certificate, "the extension \(name) is malformed or empty") }
            }
        }
        return nil
    }

    private func refusal(_ certificate: ProfileCertificate, _ reason: String) -> ChainValidationFailure {
        .refusal(.invalidExtension, by: .extensionEncoding, depth: certificate.depth, reason)
    }

    /// An extension's short name, or its dotted OID when OpenSSL has no name for it.
    private static func name(of object: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 0)
        guard length > 0, Int(length) < buffer.count else { return "(unreadable)" }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
