import CertificateRules
import Crypto
import Foundation
import NIOStack
import Reference
import SwiftASN1
import Testing
import X509

/// Hostile certificates read by both stacks' adapters: each reading ends, quickly, and the two agree.
@Suite("Certificate facts from hostile certificates", .timeLimit(.minutes(1)))
struct CertificateFactsBoundsTests {

    /// A self-signed certificate with these extensions, DER-encoded.
    private static func certificate(_ extensions: [Certificate.Extension]) throws -> [UInt8] {
        let key = P256.Signing.PrivateKey()
        let name = try DistinguishedName { CommonName("bounds.example.test") }
        let certificate = try Certificate(
            version: .v3, serialNumber: Certificate.SerialNumber(), publicKey: .init(key.publicKey),
            notValidBefore: Date(timeIntervalSince1970: 1_700_000_000), notValidAfter: Date(timeIntervalSince1970: 2_700_000_000),
            issuer: name, subject: name, signatureAlgorithm: .ecdsaWithSHA256, extensions: try Certificate.Extensions(extensions),
            issuerPrivateKey: .init(key))
        var serializer = DER.Serializer()
        try serializer.serialize(certificate)
        return serializer.serializedBytes
    }

    /// Reads a certificate with both adapters, within a bound, and expects the same facts.
    private static func expectAgreement(_ der: [UInt8]) throws -> CertificateFacts {
        let start = ContinuousClock.now
        let openSSL = try #require(CertificateFacts(openSSLDER: der, depth: 0))
        let swift = CertificateFacts(swiftCertificates: try Certificate(derEncoded: der), depth: 0)
        #expect(ContinuousClock.now - start < .seconds(5))
        #expect(swift == openSSL)
        return openSSL
    }

    @Test("a subjectAltName of 10,000 names is read whole, the same by both stacks")
    func tenThousandNames() throws {
        let names = (0..<10_000).map { GeneralName.dnsName("host\($0).example.test") }
        let der = try Self.certificate([try Certificate.Extension(SubjectAlternativeNames(names), critical: false)])
        let facts = try Self.expectAgreement(der)
        #expect(facts.subjectAltDNSNames.count == 10_000)
    }

    @Test(
        "an extension nested past any sane depth is read as malformed or opaque, the same by both stacks",
        arguments: ["2.5.29.32", "1.2.3.4.5"])
    func deeplyNestedExtension(oid: String) throws {
        // 2,000 SEQUENCEs, each holding the next: far past OpenSSL's and SwiftASN1's nesting limits.
        var value: [UInt8] = [0x05, 0x00]
        for _ in 0..<2_000 { value = [0x30] + Self.length(value.count) + value }
        let identifier = try ASN1ObjectIdentifier(dotRepresentation: oid)
        let der = try Self.certificate([Certificate.Extension(oid: identifier, critical: false, value: value[...])])
        let facts = try Self.expectAgreement(der)
        #expect(facts.extensions.first { $0.oid == oid }?.isWellFormed == (oid == "1.2.3.4.5"))
    }

    /// A DER length.
    private static func length(_ count: Int) -> [UInt8] {
        if count < 0x80 { return [UInt8(count)] }
        let bytes = withUnsafeBytes(of: UInt32(count).bigEndian, Array.init).drop { $0 == 0 }
        return [0x80 | UInt8(bytes.count)] + bytes
    }
}
