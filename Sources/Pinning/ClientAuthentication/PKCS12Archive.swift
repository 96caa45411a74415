internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// Opens PKCS#12 archives.
enum PKCS12Archive {

    /// The certificate (leaf first, then the archive's other certificates) and key of an archive.
    static func open(_ data: Data, passphrase: String, source: String) throws(ClientIdentity.LoadingError) -> (OwnedCertificates, OwnedKey)
    {
        let archive = data.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(clamping: bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return d2i_PKCS12_bio(bio, nil)
        }
        guard let archive else {
            throw ClientIdentity.LoadingError(code: .malformedPKCS12, message: "\(source): not a PKCS#12 archive (\(openSSLReason()))")
        }
        defer { PKCS12_free(archive) }
        // The MAC is checked first, so that a wrong passphrase is told apart from a damaged archive.
        if PKCS12_mac_present(archive) == 1, PKCS12_verify_mac(archive, passphrase, Int32(passphrase.utf8.count)) != 1 {
            ERR_clear_error()
            throw ClientIdentity.LoadingError(code: .wrongPassphrase, message: "\(source): the passphrase does not open the archive")
        }
        var key: OpaquePointer?
        var leaf: OpaquePointer?
        var others: OpaquePointer?
        guard PKCS12_parse(archive, passphrase, &key, &leaf, &others) == 1, let key, let leaf else {
            let reason = openSSLReason()
            key.map { EVP_PKEY_free($0) }
            leaf.map { X509_free($0) }
            others.map { cshims_sk_X509_pop_free($0) }
            throw ClientIdentity.LoadingError(code: .malformedPKCS12, message: "\(source): no certificate and key can be read (\(reason))")
        }
        var certificates = [leaf]
        if let others {
            for index in 0..<cshims_sk_X509_num(others) {
                guard let certificate = cshims_sk_X509_value(others, index) else { continue }
                X509_up_ref(certificate)
                certificates.append(certificate)
            }
            cshims_sk_X509_pop_free(others)
        }
        return (OwnedCertificates.taking(certificates)!, OwnedKey(taking: key))
    }
}
