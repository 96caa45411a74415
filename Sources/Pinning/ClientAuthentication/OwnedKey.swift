internal import COpenSSL
import Foundation

/// An OpenSSL private key, freed with this object.
package final class OwnedKey {

    package let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }

    /// Reads a PEM private key, decrypting it with `passphrase` when it is encrypted.
    ///
    /// Whether the key is encrypted is read from its PEM labels, so that a wrong passphrase is told apart from
    /// a corrupt key without reading OpenSSL's messages.
    convenience init(pem: Data, passphrase: String?, source: String) throws(ClientIdentity.LoadingError) {
        let text = String(decoding: pem, as: UTF8.self)
        let encrypted = text.contains("-----BEGIN ENCRYPTED PRIVATE KEY-----") || text.contains("Proc-Type: 4,ENCRYPTED")
        ERR_clear_error()
        let key = pem.withUnsafeBytes { bytes -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(clamping: bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            // Never OpenSSL's default callback, which would prompt on the terminal for a missing passphrase.
            return (passphrase ?? "").withCString { phrase in
                PEM_read_bio_PrivateKey(bio, nil, passphraseCallback, UnsafeMutableRawPointer(mutating: phrase))
            }
        }
        let reason = openSSLReason()
        guard let key else {
            if encrypted {
                let why = passphrase == nil ? "the key is encrypted and no passphrase was given" : "the passphrase does not open the key"
                throw ClientIdentity.LoadingError(code: .wrongPassphrase, message: "\(source): \(why)")
            }
            throw ClientIdentity.LoadingError(code: .malformedKey, message: "\(source): no private key can be read (\(reason))")
        }
        self.init(taking: key)
    }

    /// Parses an unencrypted PKCS#8 `PrivateKeyInfo`; `nil` if it does not parse.
    package convenience init?(pkcs8 der: Data) {
        let parsed = der.withUnsafeBytes {
            DEREncoding.decodeWhole($0, with: { d2i_AutoPrivateKey(nil, &$0, $1) }, free: EVP_PKEY_free)
        }
        guard let parsed else {
            ERR_clear_error()
            return nil
        }
        self.init(taking: parsed)
    }
}

/// Copies the passphrase given as the callback's argument (a C string; empty means none) into OpenSSL's buffer.
private let passphraseCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int32, Int32, UnsafeMutableRawPointer?) -> Int32 = {
    buffer, size, _, argument in
    guard let buffer, let argument else { return 0 }
    let phrase = argument.assumingMemoryBound(to: CChar.self)
    let length = min(Int(strlen(phrase)), Int(size))
    guard length > 0 else { return 0 }
    buffer.update(from: phrase, count: length)
    return Int32(length)
}

/// The reason of OpenSSL's most recent error, clearing the queue; "no reason given" when it is empty.
package func openSSLReason() -> String {
    let code = ERR_peek_last_error()
    ERR_clear_error()
    guard code != 0, let reason = ERR_reason_error_string(code) else { return "no reason given" }
    return String(cString: reason)
}
