internal import COpenSSL
import Foundation

/// The SPKI pin of a certificate or key file, computed as the stack computes a certificate's pin in a handshake, so
/// that `verify-chain pin` and a refusal message print the very pins a policy takes.
package enum SPKIPinFile {

    /// Why a file gave no pin.
    package struct Failure: Error, CustomStringConvertible {
        /// The file.
        package let path: String
        /// What went wrong.
        package let reason: String
        /// Whether the file is missing, which a command reports with a status of its own.
        package var isMissing = false
        package var description: String { "\(path): \(reason)" }
    }

    /// The pin of the first certificate of a file, or of the public key or unencrypted private key it holds, PEM or
    /// DER: a backup pin comes from a key that is in no chain.
    package static func pin(ofFile path: String) throws(Failure) -> String {
        let contents: Data
        do {
            contents = try FileContents.read(path)
        } catch {
            throw Failure(path: path, reason: error.description, isMissing: error == .missing)
        }
        return try pin(of: contents, source: path)
    }

    /// The pin of what `contents` holds, as ``pin(ofFile:)`` reads a file; `source` names it in a failure.
    package static func pin(of contents: Data, source path: String) throws(Failure) -> String {
        defer { ERR_clear_error() }
        guard let spki = subjectPublicKeyInfo(in: contents), let digest = OpenSSLCertificate.sha256(spki) else {
            throw Failure(path: path, reason: "not a certificate, public key or unencrypted private key (PEM or DER)")
        }
        return digest.base64EncodedString()
    }

    /// The DER `SubjectPublicKeyInfo` of what the bytes hold, trying each form in turn on a fresh reader.
    private static func subjectPublicKeyInfo(in contents: Data) -> Data? {
        let certificateKey: (OpaquePointer?) -> Data? = { certificate in
            defer { X509_free(certificate) }
            return DEREncoding.of(X509_get_X509_PUBKEY(certificate), with: i2d_X509_PUBKEY)
        }
        let publicKey: (OpaquePointer?) -> Data? = { key in
            defer { EVP_PKEY_free(key) }
            return DEREncoding.of(key, with: { i2d_PUBKEY($0, $1) })
        }
        let readers: [(OpaquePointer) -> Data?] = [
            { bio in PEM_read_bio_X509(bio, nil, nil, nil).flatMap(certificateKey) },
            { bio in d2i_X509_bio(bio, nil).flatMap(certificateKey) },
            { bio in PEM_read_bio_PUBKEY(bio, nil, nil, nil).flatMap(publicKey) },
            { bio in d2i_PUBKEY_bio(bio, nil).flatMap(publicKey) },
            // An empty passphrase as the callback's argument: an encrypted key fails instead of prompting.
            { bio in "".withCString { PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }.flatMap(publicKey) },
            { bio in d2i_PrivateKey_bio(bio, nil).flatMap(publicKey) },
        ]
        for reader in readers {
            let spki = contents.withUnsafeBytes { bytes -> Data? in
                guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(clamping: bytes.count)) else { return nil }
                defer { BIO_free(bio) }
                return reader(bio)
            }
            if let spki { return spki }
        }
        return nil
    }
}
