import Foundation
@testable import Pinning
import Testing

/// `d2i_*` stops at the end of a DER value and leaves what follows unread: every parser of the package refuses
/// such input, as a TLS client refuses such a certificate.
@Suite("DER values end where their bytes end")
struct DERTrailingBytesTests {
    private static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/certs")

    private static func der(ofPEM file: String) throws -> Data {
        let text = try String(contentsOf: folder.appendingPathComponent(file), encoding: .utf8)
        let body = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        return try #require(Data(base64Encoded: body))
    }

    @Test("a certificate with a byte after its DER value is not parsed")
    func certificateWithTrailingByte() throws {
        let der = try Self.der(ofPEM: "valid-ec256/leaf.pem")
        #expect(X509Object(der: der) != nil)
        #expect(X509Object(der: der + Data([0])) == nil)
    }

    @Test("a PKCS#8 key with a byte after its DER value is not parsed")
    func keyWithTrailingByte() throws {
        let der = try Self.der(ofPEM: "valid-ec256/leaf.key")
        #expect(OwnedKey(pkcs8: der) != nil)
        #expect(OwnedKey(pkcs8: der + Data([0])) == nil)
    }
}
