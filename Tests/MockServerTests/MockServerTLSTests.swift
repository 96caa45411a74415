import Foundation
import MockServer
import XCTest

/// TLS serving, per-SNI chains, handshake journaling and TLS-phase faults, driven by curl and `openssl s_client`.
final class MockServerTLSTests: ServerTestCase {
    func testHTTPSIsServedWithAChainTheTestRootTrusts() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(body: Data("secure".utf8)))

        let result = curlTLS(server, "/s")

        XCTAssertEqual(result.exitCode, 0, result.stderr)
        XCTAssertEqual(result.body, "secure")
        XCTAssertEqual(server.url("/s").absoluteString, "https://localhost:\(server.port)/s")
        let request = try server.takeRequest()
        XCTAssertEqual(request.sniName, "localhost")
        XCTAssertNotNil(request.tlsVersion)
        let record = try XCTUnwrap(closedRecord(server))
        XCTAssertEqual(record.handshake, .succeeded)
        XCTAssertEqual(record.sniName, "localhost")
        XCTAssertEqual(record.tlsVersion, "TLSv1.3")
        XCTAssertFalse(record.sessionReused)
        XCTAssertGreaterThan(record.applicationBytesReceived, 0)
    }

    func testKeepAliveWorksOverTLS() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse())
        server.enqueue(MockResponse())

        let result = curlTLS(server, "/a", [server.url("/b").absoluteString])

        XCTAssertEqual(result.exitCode, 0, result.stderr)
        XCTAssertEqual(try server.takeRequest().exchangeIndex, 0)
        XCTAssertEqual(try server.takeRequest().exchangeIndex, 1)
        XCTAssertEqual(server.journal.count, 1)
    }

    func testAnUntrustedChainIsRejectedAndTheClientsAlertJournaled() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse())

        let result = Curl.run(server.url("/"), [], caFile: TestCertificates.shared.otherRoot)

        XCTAssertEqual(result.exitCode, 60, result.stderr)
        let record = try XCTUnwrap(closedRecord(server))
        guard record.handshake.isFailed, let reason = record.handshake.failureReason else { return XCTFail("\(record.handshake)") }
        XCTAssertTrue(reason.contains("unknown ca"), reason)
        XCTAssertEqual(record.applicationBytesReceived, 0)
        XCTAssertEqual(record.requestCount, 0)
    }

    func testEachSNINameGetsExactlyItsOwnChain() throws {
        let server = try makeTLSServer(sni: true)

        let byDefault = sClient(server, name: "localhost")
        let byName = sClient(server, name: "b.example.test")

        XCTAssertEqual(certificates(in: byDefault), 2, "leaf and intermediate, as in served.pem")
        XCTAssertTrue(byDefault.contains("CN = localhost") || byDefault.contains("CN=localhost"), byDefault)
        XCTAssertEqual(certificates(in: byName), 1, "the leaf alone, as in b-leaf.pem")
        XCTAssertTrue(byName.contains("b.example.test"), byName)
        XCTAssertEqual(Set(server.journal.compactMap(\.sniName)), ["localhost", "b.example.test"])
    }

    func testTheSNIIdentityIsRecordedOnTheRequest() throws {
        let server = try makeTLSServer(sni: true)
        server.enqueue(MockResponse())

        // b-leaf.pem is sent without its intermediate, so give curl the intermediate as a trust anchor too.
        let bundle = TestCertificates.shared.path("root-and-inter.pem")
        let bundleText = try String(contentsOfFile: TestCertificates.shared.root, encoding: .utf8)
            + (try String(contentsOfFile: TestCertificates.shared.intermediate, encoding: .utf8))
        try bundleText.write(toFile: bundle, atomically: true, encoding: .utf8)
        let url = URL(string: "https://b.example.test:\(server.port)/")!
        let result = Curl.run(url, ["--resolve", "b.example.test:\(server.port):127.0.0.1"], caFile: bundle)

        XCTAssertEqual(result.exitCode, 0, result.stderr)
        XCTAssertEqual(try server.takeRequest().sniName, "b.example.test")
    }

    func testTLS12CanBeForced() throws {
        let files = TestCertificates.shared
        let server = try makeServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), maximumVersion: .tls12))
        server.enqueue(MockResponse())

        XCTAssertEqual(curlTLS(server).exitCode, 0)
        XCTAssertEqual(try server.takeRequest().tlsVersion, "TLSv1.2")
    }

    func testCipherLimitsAreWhatTheServerNegotiates() throws {
        let files = TestCertificates.shared
        let server = try makeServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey),
                                               maximumVersion: .tls12, cipherList: "ECDHE-ECDSA-AES256-GCM-SHA384"))
        let agreed = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2"], stdin: Data())
        let refused = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_2",
                                                           "-cipher", "ECDHE-ECDSA-AES128-GCM-SHA256"], stdin: Data())

        XCTAssertTrue(agreed.stdout.contains("Cipher is ECDHE-ECDSA-AES256-GCM-SHA384"), agreed.stdout)
        XCTAssertFalse(refused.stdout.contains("Cipher is ECDHE"), refused.stdout)
    }

    func testAnInvalidCipherListIsATypedError() throws {
        let files = TestCertificates.shared
        XCTAssertThrowsError(try MockServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey),
                                                       cipherList: "NOT-A-CIPHER"))) { error in
            XCTAssertEqual((error as? MockServerError)?.code, .tlsSetupFailed)
        }
    }

    func testALegacyTLS11OnlyServerNegotiatesTLS11AndCurlRefusesIt() throws {
        let files = TestCertificates.shared
        let server = try makeServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey),
                                               minimumVersion: .tls10, maximumVersion: .tls11))

        let legacy = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-tls1_1", "-cipher", "DEFAULT@SECLEVEL=0"],
                                     stdin: Data())
        let modern = curlTLS(server)

        XCTAssertTrue(legacy.stdout.contains("Protocol  : TLSv1.1"), legacy.stdout)
        XCTAssertEqual(modern.exitCode, 35, modern.stderr)
        XCTAssertEqual(closedRecord(server, 1)?.closedBy, .client)
    }

    func testShutdownUnblocksAConnectionWaitingForAClientHello() throws {
        let server = try makeTLSServer()
        let fd = try RawClient.connectIdle(port: server.port)
        defer { close(fd) }
        try server.waitForConnections(1, timeout: .seconds(2))

        let start = Date()
        let report = server.shutdown()

        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual(report.openConnections, 1)
        XCTAssertEqual(report.unfinishedConnections, 0)
        XCTAssertEqual(server.journal.first?.closedBy, .server)
    }

    func testManyConcurrentTLSConnectionsAreAllServed() throws {
        let server = try makeTLSServer()
        server.dispatcher = MockDispatcher { request in MockResponse(body: Data(request.path.utf8)) }
        let urls = (0..<40).map { server.url("/\($0 % 10)").absoluteString }

        let result = TestProcess.run("/usr/bin/curl", ["-sS", "--max-time", "10", "--cacert", TestCertificates.shared.root,
                                                       "--parallel", "--parallel-max", "16"] + urls)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout.count, 80)
        XCTAssertTrue(server.journal.allSatisfy { $0.handshake == .succeeded })
    }

    func testCloseAtAcceptFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.closeAtAccept))
        XCTAssertEqual(curlTLS(server).exitCode, 35)
    }

    func testResetAtAcceptFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.resetAtAccept))
        // The RST can land while curl still counts the TCP connect as in progress (7) or in the handshake (35).
        XCTAssertTrue([7, 35].contains(curlTLS(server).exitCode))
        XCTAssertEqual(closedRecord(server)?.closeKind, .reset)
    }

    func testStallAtAcceptTimesTheClientOut() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.stallAtAccept))
        XCTAssertEqual(curlTLS(server, maxTime: 1).exitCode, 28)
    }

    func testCloseAfterClientHelloFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.closeAfterClientHello))
        XCTAssertEqual(curlTLS(server).exitCode, 35)
        XCTAssertEqual(server.journal.first?.handshake, .pending)
    }

    func testResetAfterClientHelloFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.resetAfterClientHello))
        XCTAssertEqual(curlTLS(server).exitCode, 35)
    }

    func testStallAfterClientHelloTimesTheClientOut() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.stallAfterClientHello))
        XCTAssertEqual(curlTLS(server, maxTime: 1).exitCode, 28)
    }

    func testAPlaintextReplyToTheClientHelloFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.plaintextReplyToClientHello))
        XCTAssertEqual(curlTLS(server).exitCode, 35)
    }

    func testAFatalAlertAfterTheClientHelloFailsTheTLSConnectAndCurlNamesIt() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.fatalAlertAfterClientHello))

        let result = curlTLS(server)

        XCTAssertEqual(result.exitCode, 35, result.stderr)
        XCTAssertTrue(result.stderr.contains("alert handshake failure"), result.stderr)
        let record = closedRecord(server)
        XCTAssertEqual(record?.fault, .fatalAlertAfterClientHello)
        XCTAssertEqual(record?.handshake, .pending)
        XCTAssertEqual(record?.closedBy, .server)
        XCTAssertEqual(record?.applicationBytesReceived, 0)
        XCTAssertTrue(server.shutdown().isClean, "the fault's response was consumed after the ClientHello")
    }

    func testAFatalAlertAfterTheClientHelloIsTheAlertSClientReads() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.fatalAlertAfterClientHello))

        let result = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-msg"],
                                     stdin: Data())

        XCTAssertEqual(result.status, 1)
        // -msg prints the record as read: a fatal handshake_failure alert, level 2, description 40, and nothing else.
        XCTAssertTrue(result.stdout.contains("Alert [length 0002], fatal handshake_failure"), result.stdout)
        XCTAssertTrue(result.stdout.contains("02 28"), result.stdout)
        XCTAssertTrue(result.stdout.contains("SSL handshake has read 7 bytes"), result.stdout)
        XCTAssertTrue(result.stderr.contains("SSL alert number 40"), result.stderr)
    }

    func testCloseWithoutCloseNotifyAfterAFramedBodyStillSucceeds() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(body: Data("whole".utf8), fault: .closeWithoutCloseNotify))

        let result = curlTLS(server)

        XCTAssertEqual(result.exitCode, 0, result.stderr)
        XCTAssertEqual(result.body, "whole")
    }

    func testCloseWithoutCloseNotifySkipsTheAlertThatANormalCloseSends() throws {
        for fault in [MockFault?.none, .closeWithoutCloseNotify] {
            let server = try makeTLSServer()
            server.enqueue(MockResponse(body: Data("whole".utf8), closeConnection: true, fault: fault))

            let output = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-ign_eof", "-quiet"],
                                         stdin: Data("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))

            XCTAssertTrue(output.stdout.hasSuffix("whole"), output.stdout)
            // s_client reports a TCP close that no close_notify preceded as an unexpected EOF, and fails.
            XCTAssertEqual(output.stderr.contains("unexpected eof"), fault != nil, output.stderr)
            XCTAssertEqual(output.status, fault == nil ? 0 : 1)
        }
    }

    func testAResponseFaultOverTLSIsSeenByTheClient() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(fault: .closeWithNoReply))
        XCTAssertEqual(curlTLS(server).exitCode, 52)
    }

    func testSessionResumptionIsOffByDefaultAndOnWhenAsked() throws {
        for resumption in [false, true] {
            let server = try makeTLSServer(sessionResumption: resumption)
            let session = TestCertificates.shared.path("session-\(resumption).pem")
            _ = sClient(server, name: "localhost", extra: ["-sess_out", session, "-tls1_2"])
            _ = sClient(server, name: "localhost", extra: ["-sess_in", session, "-tls1_2"])
            // Without resumption s_client gets no session to save, so the second run may not even connect.
            XCTAssertEqual(server.journal.contains(where: \.sessionReused), resumption)
            XCTAssertEqual(server.journal.last?.sessionReused, resumption)
        }
    }

    func testAMissingCertificateFileIsReportedWithItsPath() {
        XCTAssertThrowsError(try MockServer(tls: .init(identity: .init(chainFile: "/nonexistent.pem", keyFile: "/nonexistent.key")))) { error in
            let error = error as? MockServerError
            XCTAssertEqual(error?.code, .invalidCertificate)
            XCTAssertTrue(error?.message.contains("/nonexistent.pem") ?? false)
        }
    }

    func testAKeyThatDoesNotMatchTheLeafIsRejected() {
        let files = TestCertificates.shared
        XCTAssertThrowsError(try MockServer(tls: .init(identity: .init(chainFile: files.servedChain, keyFile: files.otherLeafKey)))) { error in
            XCTAssertEqual((error as? MockServerError)?.code, .invalidKey)
        }
    }

    // MARK: openssl s_client

    private func sClient(_ server: MockServer, name: String, extra: [String] = []) -> String {
        let result = TestProcess.run("/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", name, "-showcerts"] + extra,
                                     stdin: Data())
        _ = closedRecord(server, server.journal.count - 1)
        return result.stdout
    }

    private func certificates(in output: String) -> Int {
        output.components(separatedBy: "-----BEGIN CERTIFICATE-----").count - 1
    }
}
