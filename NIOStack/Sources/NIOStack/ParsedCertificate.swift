import CertificateRules
import Crypto
import Foundation
import NetworkCore
import SwiftASN1
import X509

/// One certificate a server sent: parsed for the verifier, summarised for the challenge, its facts read for the
/// validation profile (at depth 0: a chain sets its depth).
struct ParsedCertificate: Sendable {
    let certificate: Certificate
    let summary: ServerCertificate
    let facts: CertificateFacts

    /// Parses DER bytes; the summary keeps them as they came, and pins the DER `SubjectPublicKeyInfo` (base64 of its
    /// SHA-256). Names are in RFC 2253 order (`CN=…,O=…`), as the reference stack prints them.
    init(der: [UInt8]) throws {
        certificate = try Certificate(derEncoded: der)
        summary = try Self.summary(of: certificate, der: Data(der))
        facts = CertificateFacts(swiftCertificates: certificate, depth: 0)
    }

    static func summary(of certificate: Certificate, der: Data? = nil) throws -> ServerCertificate {
        var keySerializer = DER.Serializer()
        try keySerializer.serialize(certificate.publicKey)
        let pin = Data(SHA256.hash(data: keySerializer.serializedBytes)).base64EncodedString()
        let der =
            try der
            ?? {
                var serializer = DER.Serializer()
                try serializer.serialize(certificate)
                return Data(serializer.serializedBytes)
            }()
        return ServerCertificate(der: der, spkiSHA256: pin, subject: "\(certificate.subject)", issuer: "\(certificate.issuer)")
    }
}
