import Foundation
import NetworkCore
import Reference
import TestTraits
import Testing

/// Loading a client identity: every bad input is a typed error at load time, never at fetch time.
@Suite("Loading a client identity", .blocking)
struct ClientIdentityLoadingTests {
    private let chain = Fixtures.path("client-valid/served.pem")
    private let key = Fixtures.path("client-valid/leaf.key")

    /// A scratch folder with the client-valid identity as an encrypted PEM key and as PKCS#12, made by the openssl CLI.
    private final class Converted {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("client-identity-\(UUID().uuidString)")
        var encryptedKey: String { folder.appendingPathComponent("encrypted.key").path }
        var archive: String { folder.appendingPathComponent("client.p12").path }

        init(chain: String, key: String) throws {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try openssl(["pkey", "-in", key, "-aes256", "-passout", "pass:secret", "-out", encryptedKey])
            try openssl(["pkcs12", "-export", "-in", chain, "-inkey", key, "-passout", "pass:secret", "-out", archive])
        }

        deinit { try? FileManager.default.removeItem(at: folder) }

        private func openssl(_ arguments: [String]) throws { try OpenSSLCommand.run(arguments) }
    }

    @Test("PEM files load into the chain, leaf first, with the leaf's subject and end date")
    func pemFilesLoad() throws {
        let identity = try ClientIdentity(pemCertificateFile: chain, privateKeyFile: key)

        #expect(identity.certificateChain.count == 2)
        #expect(identity.subject == "CN=Fixture client-valid Client")
        #expect(identity.notAfter == Date(timeIntervalSince1970: 4_733_510_400))  // 2120-01-01
    }

    @Test("no way of printing an identity shows its key: description, debug description, inside a value, dump")
    func noPrintingShowsTheKey() throws {
        let identity = try ClientIdentity(pemCertificateFile: chain, privateKeyFile: key)
        let keyHex = identity.privateKey.map { String(format: "%02x", $0) }.joined()
        let keyBase64 = identity.privateKey.base64EncodedString()
        var dumped = ""
        dump(identity, to: &dumped)

        for printed in [
            "\(identity)", String(reflecting: identity), "\([identity])",
            "\(ClientCertificateChallenge.Disposition.useCredential(identity))",
            dumped,
        ] {
            #expect(!printed.contains(keyHex) && !printed.contains(keyBase64) && !printed.contains("privateKey"), "\(printed)")
        }
    }

    @Test("a damaged certificate after the leaf is malformedCertificate, never a shorter chain")
    func aDamagedSecondCertificateIsMalformed() throws {
        let leafOnly = try #require(FileManager.default.contents(atPath: Fixtures.path("client-valid/leaf.pem")))
        let damaged = leafOnly + Data("-----BEGIN CERTIFICATE-----\nbm90IGEgY2VydGlmaWNhdGU=\n-----END CERTIFICATE-----\n".utf8)

        #expect(throws: ClientIdentity.LoadingError(code: .malformedCertificate, message: "")) {
            try ClientIdentity(pemCertificates: damaged, privateKey: FileManager.default.contents(atPath: key)!)
        }
    }

    @Test("a certificate not valid yet at the time asked is notYetValid")
    func notYetValid() {
        #expect(throws: ClientIdentity.LoadingError(code: .notYetValid, message: "")) {
            try ClientIdentity(pemCertificateFile: chain, privateKeyFile: key, validAt: Date(timeIntervalSince1970: 1_500_000_000))
        }
    }

    @Test("an encrypted key opens with its passphrase, and a wrong or missing one is wrongPassphrase")
    func anEncryptedKeyNeedsItsPassphrase() throws {
        let files = try Converted(chain: chain, key: key)

        let opened = try ClientIdentity(pemCertificateFile: chain, privateKeyFile: files.encryptedKey, passphrase: "secret")

        #expect(opened == (try ClientIdentity(pemCertificateFile: chain, privateKeyFile: key)))
        #expect(throws: ClientIdentity.LoadingError.wrongPassphrase) {
            try ClientIdentity(pemCertificateFile: chain, privateKeyFile: files.encryptedKey, passphrase: "wrong")
        }
        #expect(throws: ClientIdentity.LoadingError.wrongPassphrase) {
            try ClientIdentity(pemCertificateFile: chain, privateKeyFile: files.encryptedKey)
        }
    }

    @Test("a PKCS#12 archive loads the same identity, and a wrong passphrase is wrongPassphrase")
    func aPKCS12ArchiveLoads() throws {
        let files = try Converted(chain: chain, key: key)

        let loaded = try ClientIdentity(pkcs12File: files.archive, passphrase: "secret")

        #expect(loaded == (try ClientIdentity(pemCertificateFile: chain, privateKeyFile: key)))
        #expect(throws: ClientIdentity.LoadingError.wrongPassphrase) { try ClientIdentity(pkcs12File: files.archive, passphrase: "nope") }
    }

    @Test("a key that is not the leaf's is keyMismatch")
    func aKeyThatIsNotTheLeafsIsKeyMismatch() {
        #expect(throws: ClientIdentity.LoadingError.keyMismatch) {
            try ClientIdentity(
                pemCertificateFile: Fixtures.path("client-key-mismatch/served.pem"),
                privateKeyFile: Fixtures.path("client-other-ca/leaf.key"))
        }
    }

    @Test("an expired certificate is refused at load time, unless the date check is waived")
    func anExpiredCertificateIsRefusedUnlessWaived() throws {
        let expired = Fixtures.path("client-expired/served.pem")
        let expiredKey = Fixtures.path("client-expired/leaf.key")

        #expect(throws: ClientIdentity.LoadingError.expired) { try ClientIdentity(pemCertificateFile: expired, privateKeyFile: expiredKey) }
        #expect((try? ClientIdentity(pemCertificateFile: expired, privateKeyFile: expiredKey, validAt: nil)) != nil)
    }

    @Test(
        "unreadable or corrupt input is a typed error",
        arguments: [
            ("/nonexistent/client.pem", "unreadable"), ("client-valid/leaf.key", "noCertificate"),
        ])
    func unreadableOrCorruptCertificates(file: String, code: String) {
        let path = file.hasPrefix("/") ? file : Fixtures.path(file)
        do {
            _ = try ClientIdentity(pemCertificateFile: path, privateKeyFile: key)
            Issue.record("loaded")
        } catch {
            #expect(error.code.description == code, "\(error)")
        }
    }

    @Test("a corrupt key and a corrupt archive are malformedKey and malformedPKCS12")
    func corruptKeyAndArchive() {
        let garbage = Data("-----BEGIN PRIVATE KEY-----\nbm90IGEga2V5\n-----END PRIVATE KEY-----\n".utf8)
        #expect(throws: ClientIdentity.LoadingError(code: .malformedKey, message: "")) {
            try ClientIdentity(pemCertificates: FileManager.default.contents(atPath: chain)!, privateKey: garbage)
        }
        #expect(throws: ClientIdentity.LoadingError(code: .malformedPKCS12, message: "")) {
            try ClientIdentity(pkcs12: Data("not an archive".utf8), passphrase: "secret")
        }
    }
}
