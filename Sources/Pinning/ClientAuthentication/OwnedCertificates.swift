internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// OpenSSL certificates read from PEM or DER, leaf first, freed with this object.
package final class OwnedCertificates {

    /// Never empty.
    package let all: [OpaquePointer]
    package var leaf: OpaquePointer { all[0] }

    /// Takes ownership of parsed certificates, at least one.
    private init(nonEmpty certificates: [OpaquePointer]) { all = certificates }

    deinit { all.forEach { X509_free($0) } }

    /// Takes ownership of parsed certificates; `nil` when there are none.
    static func taking(_ certificates: [OpaquePointer]) -> OwnedCertificates? {
        certificates.isEmpty ? nil : OwnedCertificates(nonEmpty: certificates)
    }

    /// Reads every PEM certificate of `pem`, in order. A block that is not a certificate, or a certificate that does
    /// not parse, is an error rather than the end of the chain, so a damaged chain is never presented short.
    static func reading(pem: Data, source: String) throws(ClientIdentity.LoadingError) -> OwnedCertificates {
        var certificates: [OpaquePointer] = []
        // The BIO reads the bytes in place: it is made, drained and freed while they are pinned.
        let ended = pem.withUnsafeBytes { bytes -> UInt in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(clamping: bytes.count)) else { return 0 }
            defer { BIO_free(bio) }
            ERR_clear_error()
            // Never OpenSSL's default callback, which would prompt on the terminal for an encrypted block.
            while let certificate = PEM_read_bio_X509(bio, nil, refusingPassphrase, nil) { certificates.append(certificate) }
            return ERR_peek_last_error()
        }
        ERR_clear_error()
        let owned = taking(certificates)
        // Running out of PEM blocks leaves "no start line"; anything else stopped the loop early.
        guard cshims_ERR_GET_REASON(ended) == PEM_R_NO_START_LINE else {
            throw ClientIdentity.LoadingError(
                code: .malformedCertificate, message: "\(source): certificate \(certificates.count + 1) cannot be read")
        }
        guard let owned else { throw ClientIdentity.LoadingError(code: .noCertificate, message: "\(source): no PEM certificate found") }
        return owned
    }

    /// Parses DER certificates, in order; `nil` if any does not parse, or bytes follow one's value (`d2i_X509` stops
    /// at the value's end and would leave them unread: a TLS client refuses such a certificate).
    package static func parsing(der: [Data]) -> OwnedCertificates? {
        var certificates: [OpaquePointer] = []
        for encoding in der {
            let parsed = encoding.withUnsafeBytes {
                DEREncoding.decodeWhole($0, with: { d2i_X509(nil, &$0, $1) }, free: X509_free)
            }
            guard let parsed else {
                certificates.forEach { X509_free($0) }
                ERR_clear_error()
                return nil
            }
            certificates.append(parsed)
        }
        return taking(certificates)
    }
}

/// A PEM passphrase callback that gives none, so that an encrypted block fails instead of prompting.
let refusingPassphrase: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    _, _, _, _ in 0
}
