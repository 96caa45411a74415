import Foundation

/// A certificate of a server's chain, with what pinning needs already computed.
public struct ServerCertificate: Sendable, Hashable {

    /// The DER encoding.
    public let der: Data

    /// The SPKI pin: base64 of the SHA-256 of the DER `SubjectPublicKeyInfo`.
    public let spkiSHA256: String

    /// The subject, one line (`CN=…, O=…`).
    public let subject: String

    /// The issuer, one line.
    public let issuer: String

    /// Creates a certificate summary.
    public init(der: Data, spkiSHA256: String, subject: String, issuer: String) {
        self.der = der
        self.spkiSHA256 = spkiSHA256
        self.subject = subject
        self.issuer = issuer
    }
}
