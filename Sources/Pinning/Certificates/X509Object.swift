internal import COpenSSL
import Foundation

/// An OpenSSL certificate parsed from DER, freed with this object.
final class X509Object {

    let pointer: OpaquePointer

    init?(der: Data) {
        let parsed = der.withUnsafeBytes { DEREncoding.decodeWhole($0, with: { d2i_X509(nil, &$0, $1) }, free: X509_free) }
        guard let parsed else { return nil }
        pointer = parsed
    }

    deinit { X509_free(pointer) }

    /// Whether this certificate's signature verifies with the public key of `issuer`.
    func isSigned(by issuer: X509Object) -> Bool {
        guard let key = X509_get0_pubkey(issuer.pointer) else { return false }
        let verified = X509_verify(pointer, key) == 1
        ERR_clear_error()  // a failed verification leaves errors on the thread's queue
        return verified
    }
}
