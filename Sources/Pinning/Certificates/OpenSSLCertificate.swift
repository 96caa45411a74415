internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// Reads what pinning needs out of certificates OpenSSL has already parsed for the handshake: no DER is
/// parsed again, and the SPKI hash is computed over the certificate's own `SubjectPublicKeyInfo` encoding,
/// so every key type works (PIN-1).
package enum OpenSSLCertificate {

    /// Summaries of the certificate stacks of one handshake, each certificate summarised once: the chain
    /// OpenSSL built holds the very `X509` objects the server sent, and a summary (encoding, digest, names)
    /// costs more than the rest of the trust decision.
    package struct Summaries {
        private var known: [OpaquePointer: ServerCertificate] = [:]

        package init() {}

        /// Summaries of a `STACK_OF(X509)`, in stack order; `nil` if any certificate cannot be encoded, so that
        /// no index shifts and nothing is judged on part of a chain.
        package mutating func of(_ stack: OpaquePointer?) -> [ServerCertificate]? {
            guard let stack else { return [] }
            var summaries: [ServerCertificate] = []
            for index in 0..<cshims_sk_X509_num(stack) {
                guard let certificate = cshims_sk_X509_value(stack, index) else { return nil }
                if let summary = known[certificate] {
                    summaries.append(summary)
                    continue
                }
                guard let summary = OpenSSLCertificate.summary(of: certificate) else { return nil }
                known[certificate] = summary
                summaries.append(summary)
            }
            return summaries
        }
    }

    /// A summary of one certificate, or `nil` if it cannot be encoded or hashed.
    package static func summary(of certificate: OpaquePointer?) -> ServerCertificate? {
        guard let certificate, let der = DEREncoding.of(certificate, with: i2d_X509),
            let spki = DEREncoding.of(X509_get_X509_PUBKEY(certificate), with: i2d_X509_PUBKEY), let digest = sha256(spki)
        else { return nil }
        return ServerCertificate(
            der: der,
            spkiSHA256: digest.base64EncodedString(),
            subject: name(X509_get_subject_name(certificate)),
            issuer: name(X509_get_issuer_name(certificate)))
    }

    /// The SHA-256 digest, or `nil` if OpenSSL could not compute it (then no pin exists to compare).
    package static func sha256(_ data: Data) -> Data? {
        var digest = Data(count: 32)
        var length: UInt32 = 0
        let status = data.withUnsafeBytes { input in
            digest.withUnsafeMutableBytes { output in
                EVP_Digest(
                    input.baseAddress, input.count, output.baseAddress?.assumingMemoryBound(to: UInt8.self), &length, EVP_sha256(), nil)
            }
        }
        return status == 1 && length == 32 ? digest : nil
    }

    /// A distinguished name on one line, in RFC 2253 form.
    package static func name(_ name: OpaquePointer?) -> String {
        guard let name, let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        X509_NAME_print_ex(bio, name, 0, cshims_XN_FLAG_RFC2253())
        var text = Data()
        var chunk = [UInt8](repeating: 0, count: 256)
        while true {
            let count = BIO_read(bio, &chunk, Int32(chunk.count))
            guard count > 0 else { break }
            text.append(contentsOf: chunk[0..<Int(count)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
