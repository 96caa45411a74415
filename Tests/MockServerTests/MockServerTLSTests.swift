import Foundation
import MockServer
import TestTraits
import Testing

/// TLS serving, per-SNI chains, handshake journaling and TLS-phase faults, driven by curl and `openssl s_client`.
@Suite("Serving over TLS", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerTLSTests: ServerTests {
    @Test("HTTPS is served with a chain the test root trusts")
    func httpsIsServedWithAChainTheTestRootTrusts() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(body: Data("secure".utf8)))

        let result = curlTLS(server, "/s")

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "secure")
        #expect(server.url("/s").absoluteString == "https://localhost:\(server.port)/s")
        let request = try server.takeRequest()
        #expect(request.sniName == "localhost")
        #expect(request.tlsVersion != nil)
        let record = try #require(closedRecord(server))
        #expect(record.handshake == .succeeded)
        #expect(record.sniName == "localhost")
        #expect(record.tlsVersion == "TLSv1.3")
        #expect(!record.sessionReused)
        #expect(record.applicationBytesReceived > 0)
    }

    @Test("keep-alive works over TLS")
    func keepAliveWorksOverTLS() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse())
        server.enqueue(MockResponse())

        let result = curlTLS(server, "/a", [server.url("/b").absoluteString])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try server.takeRequest().exchangeIndex == 0)
        #expect(try server.takeRequest().exchangeIndex == 1)
        #expect(server.journal.count == 1)
    }

    @Test("an untrusted chain is rejected and the client's alert journaled")
    func anUntrustedChainIsRejectedAndTheClientsAlertJournaled() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse())

        let result = Curl.run(server.url("/"), [], caFile: TestCertificates.shared.otherRoot)

        #expect(result.exitCode == 60, "\(result.stderr)")
        let record = try #require(closedRecord(server))
        #expect(record.handshake.isFailed)
        let reason = try #require(record.handshake.failureReason, "\(record.handshake)")
        #expect(reason.contains("unknown ca"), "\(reason)")
        #expect(record.applicationBytesReceived == 0)
        #expect(record.requestCount == 0)
    }

    @Test("each SNI name gets exactly its own chain")
    func eachSNINameGetsExactlyItsOwnChain() throws {
        let server = try makeTLSServer(sni: true)

        let byDefault = sClient(server, name: "localhost")
        let byName = sClient(server, name: "b.example.test")

        #expect(certificates(in: byDefault) == 2, "leaf and intermediate, as in served.pem")
        #expect(byDefault.contains("CN = localhost") || byDefault.contains("CN=localhost"), "\(byDefault)")
        #expect(certificates(in: byName) == 1, "the leaf alone, as in b-leaf.pem")
        #expect(byName.contains("b.example.test"), "\(byName)")
        #expect(Set(server.journal.compactMap(\.sniName)) == ["localhost", "b.example.test"])
    }

    @Test("the SNI identity is recorded on the request")
    func theSNIIdentityIsRecordedOnTheRequest() throws {
        let server = try makeTLSServer(sni: true)
        server.enqueue(MockResponse())

        // b-leaf.pem is sent without its intermediate, so give curl the intermediate as a trust anchor too.
        let bundle = TestCertificates.shared.path("root-and-inter.pem")
        let bundleText =
            try String(contentsOfFile: TestCertificates.shared.root, encoding: .utf8)
            + (try String(contentsOfFile: TestCertificates.shared.intermediate, encoding: .utf8))
        try bundleText.write(toFile: bundle, atomically: true, encoding: .utf8)
        let url = URL(string: "https://b.example.test:\(server.port)/")!
        let result = Curl.run(url, ["--resolve", "b.example.test:\(server.port):127.0.0.1"], caFile: bundle)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try server.takeRequest().sniName == "b.example.test")
    }

    @Test("TLS 1.2 can be forced")
    func tLS12CanBeForced() throws {
        let files = TestCertificates.shared
        let server = try makeServer(
            tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), maximumVersion: .tls12))
        server.enqueue(MockResponse())

        #expect(curlTLS(server).exitCode == 0)
        #expect(try server.takeRequest().tlsVersion == "TLSv1.2")
    }

    @Test("cipher limits are what the server negotiates")
    func cipherLimitsAreWhatTheServerNegotiates() throws {
        let files = TestCertificates.shared
        let server = try makeServer(
            tls: .init(
                identity: .init(chainFile: files.servedChain, keyFile: files.leafKey),
                maximumVersion: .tls12, cipherList: "ECDHE-ECDSA-AES256-GCM-SHA384"))
        let agreed = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2"], stdin: Data())
        let refused = TestProcess.run(
            "/usr/bin/openssl",
            [
                "s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2",
                "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256",
            ], stdin: Data())

        #expect(agreed.stdout.contains("Cipher is ECDHE-ECDSA-AES256-GCM-SHA384"), "\(agreed.stdout)")
        #expect(!(refused.stdout.contains("Cipher is ECDHE")), "\(refused.stdout)")
    }

    @Test("an invalid cipher list is a typed error")
    func anInvalidCipherListIsATypedError() throws {
        let files = TestCertificates.shared
        let error = #expect(throws: MockServerError.self) {
            try MockServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), cipherList: "NOT-A-CIPHER"))
        }
        #expect(error?.code == .tlsSetupFailed)
    }

    @Test("a legacy TLS 1.1-only server negotiates TLS 1.1 and curl refuses it")
    func aLegacyTLS11OnlyServerNegotiatesTLS11AndCurlRefusesIt() throws {
        let files = TestCertificates.shared
        let server = try makeServer(
            tls: .init(
                identity: .init(chainFile: files.servedChain, keyFile: files.leafKey),
                minimumVersion: .tls10, maximumVersion: .tls11))

        let legacy = TestProcess.run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"],
            stdin: Data())
        let modern = curlTLS(server)

        #expect(legacy.stdout.contains("Protocol  : TLSv1.1"), "\(legacy.stdout)")
        #expect(modern.exitCode == 35, "\(modern.stderr)")
        #expect(closedRecord(server, 1)?.closedBy == .client)
    }

    @Test("shutdown unblocks a connection waiting for a ClientHello")
    func shutdownUnblocksAConnectionWaitingForAClientHello() throws {
        let server = try makeTLSServer()
        let fd = try RawClient.connectIdle(port: server.port)
        defer { close(fd) }
        try server.waitForConnections(1, timeout: .seconds(2))

        let start = Date()
        let report = server.shutdown()

        #expect(Date().timeIntervalSince(start) < 1)
        #expect(report.openConnections == 1)
        #expect(report.unfinishedConnections == 0)
        #expect(server.journal.first?.closedBy == .server)
    }

    @Test("many concurrent TLS connections are all served")
    func manyConcurrentTLSConnectionsAreAllServed() throws {
        let server = try makeTLSServer()
        server.dispatcher = MockDispatcher { request in MockResponse(body: Data(request.path.utf8)) }
        let urls = (0..<40).map { server.url("/\($0 % 10)").absoluteString }

        let result = TestProcess.run(
            "/usr/bin/curl",
            [
                "-sS", "--max-time", "10", "--cacert", TestCertificates.shared.root,
                "--parallel", "--parallel-max", "16",
            ] + urls)

        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.count == 80)
        #expect(server.journal.allSatisfy { $0.handshake == .succeeded })
    }

    @Test("session resumption is off by default and on when asked", arguments: [false, true])
    func sessionResumptionIsOffByDefaultAndOnWhenAsked(resumption: Bool) throws {
        let server = try makeTLSServer(sessionResumption: resumption)
        let session = TestCertificates.shared.path("session-\(resumption).pem")
        _ = sClient(server, name: "localhost", extra: ["-sess_out", session, "-tls1_2"])
        _ = sClient(server, name: "localhost", extra: ["-sess_in", session, "-tls1_2"])
        // Without resumption s_client gets no session to save, so the second run may not even connect.
        #expect(server.journal.contains(where: \.sessionReused) == resumption)
        #expect(server.journal.last?.sessionReused == resumption)
    }

    @Test("a missing certificate file is reported with its path")
    func aMissingCertificateFileIsReportedWithItsPath() {
        let error = #expect(throws: MockServerError.self) {
            try MockServer(tls: .init(identity: .init(chainFile: "/nonexistent.pem", keyFile: "/nonexistent.key")))
        }
        #expect(error?.code == .invalidCertificate)
        #expect(error?.message.contains("/nonexistent.pem") ?? false)
    }

    @Test("a key that does not match the leaf is rejected")
    func aKeyThatDoesNotMatchTheLeafIsRejected() {
        let files = TestCertificates.shared
        let error = #expect(throws: MockServerError.self) {
            try MockServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.otherLeafKey)))
        }
        #expect(error?.code == .invalidKey)
    }

    // MARK: openssl s_client

    func sClient(_ server: MockServer, name: String, extra: [String] = []) -> String {
        let result = TestProcess.run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", name, "-showcerts"] + extra,
            stdin: Data())
        _ = closedRecord(server, server.journal.count - 1)
        return result.stdout
    }

    func certificates(in output: String) -> Int {
        output.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
    }
}
