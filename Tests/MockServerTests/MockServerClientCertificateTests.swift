import Foundation
import MockServer
import TestTraits
import Testing

/// Asking clients for a certificate: the modes, the CA list, the verification time, and what the journal keeps,
/// driven by curl and `openssl s_client`.
@Suite("Client certificates", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerClientCertificateTests: ServerTests {
    let files = TestCertificates.shared

    func makeServer(
        _ authentication: MockServer.TLS.ClientAuthentication, maximumVersion: MockServer.TLS.Version = .tls13,
        verificationTime: Date? = nil
    ) throws -> MockServer {
        var tls = MockServer.TLS(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), maximumVersion: maximumVersion)
        if authentication.description.hasPrefix("postHandshake") { tls.minimumVersion = .tls13 }
        tls.clientAuthentication = authentication
        tls.clientVerificationTime = verificationTime
        let server = try makeServer(tls: tls)
        server.enqueue(MockResponse(body: Data("hello client".utf8)))
        return server
    }

    func curl(_ server: MockServer, certificate: String? = nil, key: String? = nil, extra: [String] = []) -> Curl.Result {
        var extra = extra
        if let certificate, let key { extra += ["--cert", certificate, "--key", key] }
        return curlTLS(server, "/", extra)
    }

    @Test("a required certificate that verifies is accepted, and its chain is journaled")
    func aRequiredCertificateThatVerifiesIsAcceptedAndItsChainIsJournaled() throws {
        let server = try makeServer(.required(trusting: files.root))

        let result = curl(server, certificate: files.clientChain, key: files.clientKey)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "hello client")
        let record = try #require(closedRecord(server)?.clientCertificate)
        #expect(record.presentedSubjects == ["CN=MockServer Test Client", "CN=MockServer Test Intermediate"])
        #expect(record.verifyResult == 0)
        #expect(record.alertSent == nil)
    }

    @Test("a required certificate that is missing fails the handshake with certificate_required (TLS 1.3)")
    func aRequiredCertificateThatIsMissingFailsTheHandshakeWithCertificateRequired() throws {
        let server = try makeServer(.required(trusting: files.root))

        let result = curl(server)

        // The client's handshake finished before the server refused: it learns on its first read.
        #expect(result.exitCode == 56, "\(result.stderr)")
        let record = try #require(closedRecord(server))
        #expect(record.handshake.isFailed)
        #expect(record.requestCount == 0)
        #expect(record.clientCertificate?.presentedSubjects == [])
        #expect(record.clientCertificate?.alertSent == "certificate_required")
    }

    @Test("a required certificate that is missing is a handshake failure under TLS 1.2")
    func aRequiredCertificateThatIsMissingIsAHandshakeFailureUnderTLS12() throws {
        let server = try makeServer(.required(trusting: files.root), maximumVersion: .tls12)

        let result = curl(server)

        #expect(result.exitCode == 35, "\(result.stderr)")
        #expect(try #require(closedRecord(server)).clientCertificate?.alertSent == "handshake_failure")
    }

    @Test("an optional certificate may be left out")
    func anOptionalCertificateMayBeLeftOut() throws {
        let server = try makeServer(.optional(trusting: files.root))

        let result = curl(server)

        #expect(result.exitCode == 0, "\(result.stderr)")
        let record = try #require(closedRecord(server)?.clientCertificate)
        #expect(record.presentedSubjects == [])
        #expect(record.verifyResult == 0)
    }

    @Test(
        "a certificate that does not verify is refused, with OpenSSL's reason and the alert journaled",
        arguments: [
            // Issued by a root the server does not trust.
            ("other CA", 20, "unknown_ca"),
            // The server's own leaf: extended key usage serverAuth only.
            ("server-only EKU", 26, "unsupported_certificate"),
            // Checked 60 days on, when every test certificate has expired.
            ("expired", 10, "certificate_expired"),
        ])
    func aCertificateThatDoesNotVerifyIsRefused(which: String, verifyResult: Int, alert: String) throws {
        let later = which == "expired" ? Date().addingTimeInterval(60 * 86_400) : nil
        let server = try makeServer(.optional(trusting: files.root), verificationTime: later)
        let (certificate, key) =
            switch which {
            case "other CA": (files.otherClient, files.otherClientKey)
            case "server-only EKU": (files.servedChain, files.leafKey)
            default: (files.clientChain, files.clientKey)
            }

        let result = curl(server, certificate: certificate, key: key)

        #expect(result.exitCode != 0, "\(result.stderr)")
        let record = try #require(closedRecord(server)?.clientCertificate)
        #expect(!record.presentedSubjects.isEmpty)
        #expect(record.verifyResult == verifyResult, "\(record.verifyReason)")
        #expect(record.alertSent == alert)
    }

    @Test("the CA file's subjects are sent as the acceptable CA names")
    func theCAFilesSubjectsAreSentAsTheAcceptableCANames() throws {
        let server = try makeServer(.optional(trusting: files.root))

        let result = TestProcess.run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", files.root],
            stdin: Data("Q\n".utf8))

        #expect(result.stdout.contains("Acceptable client certificate CA names\nCN = MockServer Test Root"), "\(result.stdout)")
    }

    @Test("a missing CA file is refused at start")
    func aMissingCAFileIsRefusedAtStart() {
        #expect(throws: MockServerError.self) { try makeServer(.required(trusting: "/nonexistent/ca.pem")) }
    }
}

extension MockServerClientCertificateTests {
    @Test("Scripts/make-chain --client issues a certificate a server requiring one accepts")
    func makeChainClientIssuesACertificateAServerRequiringOneAccepts() throws {
        let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("client-chain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: out) }
        let made = TestProcess.run(
            repository.appendingPathComponent("Scripts/make-chain").path, ["--out", out.path, "--client", "--name", "Acme"])
        #expect(made.status == 0, "\(made.stderr)")
        let server = try makeServer(.required(trusting: out.appendingPathComponent("root.pem").path))

        let result = curl(
            server, certificate: out.appendingPathComponent("served.pem").path, key: out.appendingPathComponent("leaf.key").path)

        #expect(result.exitCode == 0, "\(result.stderr)")
        let record = try #require(closedRecord(server)?.clientCertificate)
        #expect(record.presentedSubjects.first == "CN=Acme Client")
        #expect(record.verifyResult == 0)
    }
}

/// Post-handshake authentication (TLS 1.3): asked once the first request's head was read, answered before it is served.
extension MockServerClientCertificateTests {
    @Test("after the handshake, a certificate that verifies is asked for, taken in and journaled before the answer")
    func afterTheHandshakeACertificateThatVerifiesIsAccepted() throws {
        let server = try makeServer(.postHandshake(trusting: files.root))

        let result = curl(server, certificate: files.clientChain, key: files.clientKey)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "hello client")
        let record = try #require(closedRecord(server))
        #expect(record.requestCount == 1)
        let certificate = try #require(record.clientCertificate)
        #expect(certificate.requestedAfterHandshake)
        #expect(certificate.presentedSubjects == ["CN=MockServer Test Client", "CN=MockServer Test Intermediate"])
        #expect(certificate.verifyResult == 0 && certificate.alertSent == nil)
    }

    @Test(
        "after the handshake, a missing or unverified certificate is refused with the alert and no answer",
        arguments: [("missing", "certificate_required"), ("other CA", "unknown_ca")])
    func afterTheHandshakeARefusedCertificateGetsTheAlert(which: String, alert: String) throws {
        let server = try makeServer(.postHandshake(trusting: files.root))

        let result = which == "missing" ? curl(server) : curl(server, certificate: files.otherClient, key: files.otherClientKey)

        // curl reads the alert where it waits for the response.
        #expect(result.exitCode == 56, "\(result.stderr)")
        let record = try #require(closedRecord(server))
        #expect(record.handshake == .succeeded && record.requestCount == 1)
        #expect(try server.takeRequest().failure?.contains("refused") == true)
        #expect(record.clientCertificate?.requestedAfterHandshake == true)
        #expect(record.clientCertificate?.alertSent == alert)
    }

    @Test("after the handshake, a request body sent before the certificate is kept for the request")
    func afterTheHandshakeARequestBodyIsKept() throws {
        let server = try makeServer(.postHandshake(trusting: files.root))

        let result = curl(server, certificate: files.clientChain, key: files.clientKey, extra: ["--data-binary", "the body"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try server.takeRequest().body == Data("the body".utf8))
    }

    @Test("after the handshake, only the first request on a connection is asked")
    func afterTheHandshakeOnlyTheFirstRequestIsAsked() throws {
        let server = try makeServer(.postHandshake(trusting: files.root))
        server.enqueue(MockResponse(body: Data("again".utf8)))

        let result = curl(server, certificate: files.clientChain, key: files.clientKey, extra: [server.url("/second").absoluteString])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.output.contains("hello client") && result.output.contains("again"), "\(result.output)")
        let journal = server.journal
        #expect(journal.count == 1 && journal.first?.requestCount == 2)
    }

    @Test("after the handshake, a client that does not offer post-handshake authentication is closed unanswered")
    func afterTheHandshakeAClientThatCannotBeAskedIsClosed() throws {
        let server = try makeServer(.postHandshake(trusting: files.root))

        let result = TestProcess.run(
            "/usr/bin/timeout",
            ["5", "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", files.root, "-ign_eof", "-quiet"],
            stdin: Data("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))

        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.stdout.contains("HTTP/1.1"), "\(result.stdout)")
        let certificate = try #require(closedRecord(server)?.clientCertificate)
        #expect(certificate.requestedAfterHandshake && certificate.presentedSubjects.isEmpty && certificate.alertSent == nil)
    }

    @Test("after the handshake, openssl s_client -enable_pha presents its certificate and gets the answer")
    func afterTheHandshakeOpenSSLSClientPresents() throws {
        let server = try makeServer(.postHandshake(trusting: files.root))

        let result = TestProcess.run(
            "/usr/bin/timeout",
            [
                "5", "/usr/bin/openssl", "s_client", "-connect", "127.0.0.1:\(server.port)", "-CAfile", files.root, "-enable_pha",
                "-cert", files.clientChain, "-cert_chain", files.clientChain, "-key", files.clientKey, "-ign_eof", "-quiet",
            ],
            stdin: Data("GET / HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n".utf8))

        #expect(result.stdout.contains("hello client"), "\(result.stdout) \(result.stderr)")
        // `-cert_chain` repeats the leaf of `-cert`: what matters is the leaf, and that the chain verified.
        let certificate = try #require(closedRecord(server)?.clientCertificate)
        #expect(certificate.presentedSubjects.first == "CN=MockServer Test Client" && certificate.verifyResult == 0)
    }

    @Test("post-handshake authentication is refused at start below TLS 1.3 and with HTTP/2")
    func postHandshakeAuthenticationIsRefusedBelowTLS13AndWithHTTP2() {
        var tls = MockServer.TLS(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey))
        tls.clientAuthentication = .postHandshake(trusting: files.root)
        #expect(throws: MockServerError(code: .tlsSetupFailed, message: "")) { try MockServer(tls: tls) }
        tls.minimumVersion = .tls13
        tls.httpVersions = .http1AndHTTP2
        #expect(throws: MockServerError(code: .tlsSetupFailed, message: "")) { try MockServer(tls: tls) }
    }
}
