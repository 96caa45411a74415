internal import COpenSSL
import Foundation

extension ClientIdentity {

    /// Loads an identity from PEM: the certificate chain (leaf first) and the leaf's private key, optionally
    /// encrypted with a passphrase.
    ///
    /// Everything is checked now, never at fetch time: that the files parse, that the passphrase opens the key,
    /// that the key is the leaf's, and that the leaf is valid at `validAt`.
    ///
    /// - Parameters:
    ///   - pemCertificateFile: The certificates, leaf first (intermediates may follow).
    ///   - privateKeyFile: The leaf's private key (PKCS#8, or a traditional RSA or EC key), in PEM.
    ///   - passphrase: The key's passphrase, if it is encrypted.
    ///   - validAt: The time the leaf must be valid at; `nil` skips the check (tests present expired
    ///     certificates on purpose).
    /// - Throws: ``LoadingError``.
    public init(pemCertificateFile: String, privateKeyFile: String, passphrase: String? = nil, validAt: Date? = Date())
        throws(LoadingError)
    {
        try self.init(
            pemCertificates: Self.read(pemCertificateFile), privateKey: Self.read(privateKeyFile), passphrase: passphrase,
            validAt: validAt, source: pemCertificateFile)
    }

    /// Loads an identity from PEM text; see ``init(pemCertificateFile:privateKeyFile:passphrase:validAt:)``.
    ///
    /// - Parameters:
    ///   - pemCertificates: The certificates, leaf first, in PEM.
    ///   - privateKey: The leaf's private key, in PEM.
    ///   - passphrase: The key's passphrase, if it is encrypted.
    ///   - validAt: The time the leaf must be valid at; `nil` skips the check.
    ///   - source: How to name the input in errors.
    public init(pemCertificates: Data, privateKey: Data, passphrase: String? = nil, validAt: Date? = Date(), source: String = "PEM text")
        throws(LoadingError)
    {
        let chain = try OwnedCertificates.reading(pem: pemCertificates, source: source)
        let key = try OwnedKey(pem: privateKey, passphrase: passphrase, source: source)
        try self.init(chain: chain, key: key, validAt: validAt, source: source)
    }

    /// Loads an identity from a PKCS#12 archive (`.p12`, `.pfx`) holding a certificate, its key and any
    /// intermediates, checked as ``init(pemCertificateFile:privateKeyFile:passphrase:validAt:)`` does.
    ///
    /// - Throws: ``LoadingError``.
    public init(pkcs12File: String, passphrase: String, validAt: Date? = Date()) throws(LoadingError) {
        try self.init(pkcs12: Self.read(pkcs12File), passphrase: passphrase, validAt: validAt, source: pkcs12File)
    }

    /// Loads an identity from the bytes of a PKCS#12 archive; see ``init(pkcs12File:passphrase:validAt:)``.
    public init(pkcs12: Data, passphrase: String, validAt: Date? = Date(), source: String = "PKCS#12 data") throws(LoadingError) {
        let (chain, key) = try PKCS12Archive.open(pkcs12, passphrase: passphrase, source: source)
        try self.init(chain: chain, key: key, validAt: validAt, source: source)
    }

    private init(chain: OwnedCertificates, key: OwnedKey, validAt: Date?, source: String) throws(LoadingError) {
        let leaf = chain.leaf
        guard X509_check_private_key(leaf, key.pointer) == 1 else {
            ERR_clear_error()
            throw LoadingError(code: .keyMismatch, message: "\(source): the private key is not the key of the leaf certificate")
        }
        if let validAt {
            let time = time_t(validAt.timeIntervalSince1970.rounded(.down))
            // -2 is an error (a time OpenSSL cannot read), not "earlier".
            if ASN1_TIME_cmp_time_t(X509_get0_notAfter(leaf), time) == -1 {
                throw LoadingError(code: .expired, message: "\(source): the leaf certificate expired before \(validAt)")
            }
            if ASN1_TIME_cmp_time_t(X509_get0_notBefore(leaf), time) == 1 {
                throw LoadingError(code: .notYetValid, message: "\(source): the leaf certificate is not valid yet at \(validAt)")
            }
        }
        var summaries: [ServerCertificate] = []
        for certificate in chain.all {
            guard let summary = OpenSSLCertificate.summary(of: certificate) else {
                throw LoadingError(
                    code: .malformedCertificate,
                    message: "\(source): certificate \(summaries.count + 1) cannot be encoded (\(openSSLReason()))")
            }
            summaries.append(summary)
        }
        guard let info = EVP_PKEY2PKCS8(key.pointer) else {
            throw LoadingError(code: .malformedKey, message: "\(source): the private key cannot be encoded as PKCS#8 (\(openSSLReason()))")
        }
        defer { PKCS8_PRIV_KEY_INFO_free(info) }
        guard let der = DEREncoding.of(info, with: i2d_PKCS8_PRIV_KEY_INFO) else {
            throw LoadingError(code: .malformedKey, message: "\(source): the private key cannot be encoded as PKCS#8 (\(openSSLReason()))")
        }
        guard let notAfter = ASN1Date.of(X509_get0_notAfter(leaf)) else {
            throw LoadingError(code: .malformedCertificate, message: "\(source): the leaf's notAfter cannot be read (\(openSSLReason()))")
        }
        self.init(certificateChain: summaries.map(\.der), privateKey: der, subject: summaries[0].subject, notAfter: notAfter)
    }

    private static func read(_ path: String) throws(LoadingError) -> Data {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LoadingError(code: .unreadable, message: "\(path): the file cannot be read")
        }
        return data
    }
}
