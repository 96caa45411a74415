import Foundation
import NetworkCore
import Pinning
import Testing

/// `CertificateRevocationList`'s loaders: what reaches a `RevocationPolicy` is parsed, and what cannot be is a
/// typed error when it is loaded, not a surprise in a handshake.
@Suite("Revocation lists load from PEM or DER, or fail with a typed error")
struct RevocationListLoadingTests {
    private static let folder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/certs/revocation")

    private static func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    @Test("a PEM file with two lists gives both, in order, and each one's DER parses again")
    func pemListsLoad() throws {
        let text =
            try String(contentsOfFile: Self.path("crl-good.pem"), encoding: .utf8)
            + (try String(contentsOfFile: Self.path("root-crl.pem"), encoding: .utf8))
        let lists = try CertificateRevocationList.lists(pem: text)
        #expect(lists.count == 2)
        #expect(lists[0] != lists[1])
        #expect(try CertificateRevocationList(der: lists[1].der) == lists[1])
    }

    @Test("a DER file is one list")
    func derFileLoads() throws {
        let der = try CertificateRevocationList.lists(file: Self.path("crl-revoked.pem"))[0].der
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("crl-\(UUID().uuidString).der")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(der).write(to: file)
        #expect(try CertificateRevocationList.lists(file: file.path).map(\.der) == [der])
    }

    @Test("a list without the CRL number RFC 5280 requires is refused when it is loaded, PEM or DER")
    func listWithoutCRLNumberIsRefused() throws {
        let path = Self.path("crl-no-number.pem")
        let error = try #require(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList.lists(file: path) }
        #expect(error.reason == "list 1: the list has no CRL number (RFC 5280 5.2.3)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let base64 = text.split(separator: "\n").filter { !$0.hasPrefix("-----") }.joined()
        let der = try #require(Data(base64Encoded: base64))
        #expect(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList(der: Array(der)) }
    }

    @Test("text without a list, a malformed list, trailing bytes and a missing file are ReadErrors")
    func malformedInputIsATypedError() throws {
        #expect(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList.lists(pem: "no list here") }
        let broken = "-----BEGIN X509 CRL-----\nMIIBAAAA\n-----END X509 CRL-----\n"
        #expect(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList.lists(pem: broken) }
        let der = try CertificateRevocationList.lists(file: Self.path("crl-good.pem"))[0].der
        #expect(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList(der: der + [0]) }
        #expect(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList(der: []) }
        #expect(throws: CertificateRevocationList.ReadError.self) { try CertificateRevocationList.lists(file: Self.path("absent.pem")) }
    }
}
