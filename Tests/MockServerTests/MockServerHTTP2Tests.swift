import Foundation
import MockServer
import TestTraits
import Testing

/// HTTP/2 over TLS: ALPN, the scripted responses and the journal on streams, and the HTTP/2 faults, driven by
/// curl and nghttp, two clients nobody on this project wrote.
@Suite("Serving HTTP/2", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerHTTP2Tests: ServerTests {
    func makeServer(_ versions: MockServer.TLS.HTTPVersions = .http2Only) throws -> MockServer {
        let files = TestCertificates.shared
        let tls = MockServer.TLS(
            identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), httpVersions: versions)
        return try makeServer(tls: tls)
    }

    func curl2(_ server: MockServer, _ path: String = "/", _ extra: [String] = []) -> Curl.Result {
        curlTLS(server, path, ["--http2", "-v"] + extra)
    }

    @Test("ALPN selects h2 and the scripted response arrives on stream 1")
    func alpnSelectsH2AndTheScriptedResponseArrivesOnStream1() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 201, headers: [("X-Mock", "yes")], body: Data("over h2".utf8)))

        let result = curl2(server, "/a?b=c")

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.stderr.contains("ALPN: server accepted h2"), "\(result.stderr)")
        #expect(result.stderr.contains("< x-mock: yes"), "\(result.stderr)")
        #expect(result.body == "over h2")
        #expect(result.status == 201)
        let request = try server.takeRequest()
        #expect(request.version == "HTTP/2")
        #expect(request.streamID == 1)
        #expect(request.method == "GET")
        #expect(request.path == "/a")
        #expect(request.target == "/a?b=c")
        #expect(request.header(":authority") == "localhost:\(server.port)")
        let record = try #require(closedRecord(server))
        #expect(record.applicationProtocol == "h2")
        #expect(!record.http2.settings.isEmpty, "the client's SETTINGS are journaled")
    }

    @Test("a request body arrives whole on its stream")
    func aRequestBodyArrivesWholeOnItsStream() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("got it".utf8)))
        let body = String(repeating: "x", count: 100_000)

        let result = curl2(server, "/upload", ["--data-binary", body])

        #expect(result.exitCode == 0, "\(result.stderr)")
        let request = try server.takeRequest()
        #expect(request.method == "POST")
        #expect(request.body.count == 100_000)
    }

    @Test("two requests on one connection use streams 1 and 3")
    func twoRequestsOnOneConnectionUseStreams1And3() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("one".utf8)))
        server.enqueue(MockResponse(body: Data("two".utf8)))

        let result = curl2(server, "/1", [server.url("/2").absoluteString])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try server.takeRequest().streamID == 1)
        #expect(try server.takeRequest().streamID == 3)
        #expect(server.journal.count == 1)
    }

    @Test("a server offering both protocols speaks HTTP/1.1 to a client that asks for it")
    func aServerOfferingBothProtocolsSpeaksHTTP11ToAClientThatAsksForIt() throws {
        let server = try makeServer(.http1AndHTTP2)
        server.enqueue(MockResponse(body: Data("h1".utf8)))

        let result = curlTLS(server, "/", ["--http1.1"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try server.takeRequest().version == "HTTP/1.1")
        #expect(try #require(closedRecord(server)).applicationProtocol == "http/1.1")
    }

    @Test("an HTTP/2-only server refuses a client that offers only HTTP/1.1")
    func anHTTP2OnlyServerRefusesAClientThatOffersOnlyHTTP11() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        let result = curlTLS(server, "/", ["--http1.1"])

        #expect(result.exitCode == 35, "\(result.stderr)")
        let record = try #require(closedRecord(server))
        #expect(record.handshake.isFailed)
        #expect(record.requestCount == 0)
    }

    @Test("the default server does not offer h2")
    func theDefaultServerDoesNotOfferH2() throws {
        let server = try makeServer(.http1Only)
        server.enqueue(MockResponse(body: Data("h1".utf8)))

        let result = curl2(server)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(try server.takeRequest().version == "HTTP/1.1")
    }

    @Test("RST_STREAM with a chosen code is sent and the connection stays open")
    func rstStreamWithAChosenCodeIsSentAndTheConnectionStaysOpen() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.resetStream(.internalError), .afterRequest)))
        server.enqueue(MockResponse(body: Data("second".utf8)))

        let result = curl2(server, "/1", [server.url("/2").absoluteString])

        #expect(result.stderr.contains("INTERNAL_ERROR"), "\(result.stderr)")
        #expect(result.stderr.contains("second") || result.output.contains("second"), "\(result.output)")
        #expect(try server.takeRequest().streamID == 1)
        #expect(try server.takeRequest().streamID == 3)
        #expect(server.journal.count == 1, "the reset ended the stream, not the connection")
    }

    @Test("REFUSED_STREAM makes curl replay the request on a new connection")
    func refusedStreamMakesCurlReplayTheRequestOnANewConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead)))
        server.enqueue(MockResponse(body: Data("replayed".utf8)))

        let result = curl2(server, "/r")

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "replayed")
        #expect(try server.takeRequest().streamID == 1)
        #expect(try server.takeRequest().path == "/r")
    }

    @Test("a graceful GOAWAY below the request's stream closes without answering it")
    func aGracefulGoAwayBelowTheRequestsStreamClosesWithoutAnsweringIt() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.goAway(), .afterRequest)))

        let result = curl2(server, "/g")

        #expect(result.exitCode != 0, "\(result.stderr)")
        #expect(result.stderr.contains("GOAWAY") || result.stderr.contains("REFUSED"), "\(result.stderr)")
        let record = try #require(closedRecord(server))
        #expect(record.closedBy == .server)
    }

    @Test("a GOAWAY that counts the stream as processed still answers it")
    func aGoAwayThatCountsTheStreamAsProcessedStillAnswersIt() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("last".utf8), fault: MockFault(.goAway(lastStreamID: 1), .afterRequest)))

        let result = curl2(server, "/g")

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "last")
    }

    @Test(
        "a protocol violation is refused by the client with a GOAWAY the journal records",
        arguments: [
            (HTTP2Violation.invalidSetting, HTTP2ErrorCode.protocolError),
            (.hpackError, .compressionError),
            (.pushPromise, .protocolError),
            (.dataBeforeHeaders, .protocolError),
            (.windowOverflow, .flowControlError),
            (.tableSizeOverflow, .compressionError),
            (.resetStorm, .protocolError),
        ])
    func aProtocolViolationIsRefusedByTheClientWithAGoAwayTheJournalRecords(
        violation: HTTP2Violation, code: HTTP2ErrorCode
    ) throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.http2Violation(violation), .afterRequest)))

        let result = curl2(server, "/v")

        #expect(result.exitCode != 0, "\(result.stderr)")
        let record = try #require(closedRecord(server))
        let goAway = try #require(record.http2.goAway, "\(violation): \(record)")
        #expect(goAway.code == code, "\(violation)")
    }

    @Test("a SETTINGS flood ends the client's session, with no response ever sent")
    func aSettingsFloodEndsTheClientsSession() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.http2Violation(.settingsFlood), .afterRequest)))

        let result = curl2(server, "/flood", ["--max-time", "5"])

        #expect(result.exitCode != 0 && result.exitCode != 28, "curl gave up on the flood, not at its time limit: \(result.exitCode)")
        let record = try #require(closedRecord(server))
        #expect(record.closedBy == .client)
    }

    @Test("response HEADERS that never end hold the client until its time limit")
    func headersThatNeverEndHoldTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.http2Violation(.headersNeverEnd), .afterRequest)))

        let result = curl2(server, "/never", ["--max-time", "1"])

        #expect(result.exitCode == 28, "\(result.stderr)")
        #expect(result.body.isEmpty)
    }

    @Test("a response cut after N body bytes by a stream reset delivers those bytes")
    func aResponseCutAfterNBodyBytesByAStreamResetDeliversThoseBytes() throws {
        let server = try makeServer()
        server.enqueue(
            MockResponse(body: Data("0123456789".utf8), fault: MockFault(.resetStream(.cancel), .afterResponseBodyBytes(4))))

        let result = curl2(server, "/cut")

        #expect(result.exitCode == 92, "\(result.stderr)")
        #expect(result.body == "0123", "\(result.output)")
    }

    @Test("a zero window stops an upload until the client gives up")
    func aZeroWindowStopsAnUploadUntilTheClientGivesUp() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.zeroWindow, .afterRequestHead)))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("zero-window-\(UUID().uuidString)")
        try Data(repeating: 0x78, count: 200_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let result = curlTLS(server, "/z", ["--http2", "--data-binary", "@" + file.path], maxTime: 1.5)

        #expect(result.exitCode == 28, "\(result.stderr)")
        let request = try server.takeRequest()
        #expect(request.body.count < 200_000)
    }

    @Test("malformedChunkSize over HTTP/2 is a head, then a DATA frame one byte past the client's largest frame size")
    func oversizedDataFrameFollowsAWellFormedHead() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("payload".utf8), malformation: .malformedChunkSize))

        let result = TestProcess.run(
            "/usr/bin/nghttp", ["-v", "--timeout=5", server.url("/f").absoluteString],
            environment: ["SSL_CERT_FILE": TestCertificates.shared.root])

        // nghttp prints each frame it accepts: the whole head arrives, and the DATA frame, refused for its size, never
        // does (over 16 384 bytes, nghttp2 ends the session at its frame header).
        #expect(result.stdout.contains("recv HEADERS frame <length=1, flags=0x04"), "\(result.stdout)")
        #expect(!result.stdout.contains("recv DATA frame"), "\(result.stdout)")
    }

    @Test("the journal counts an HTTP/2 client's request frames apart from its preface and SETTINGS")
    func requestFrameBytesLeaveOutTheConnectionsOwnBytes() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("ok".utf8)))

        let result = curl2(server, "/frames", ["--data-binary", "0123456789"])

        #expect(result.exitCode == 0, "\(result.stderr)")
        let record = try server.waitForClose(ofConnection: 0)
        // HEADERS plus one DATA frame of 10 bytes (each with its 9-byte header); the 24-byte preface and the
        // client's SETTINGS and WINDOW_UPDATE are connection bytes, counted only in applicationBytesReceived.
        #expect(record.http2.requestFrameBytes > 9 + 10 + 9)
        #expect(record.http2.requestFrameBytes + 24 + 9 < record.applicationBytesReceived)
    }

    @Test("awaitClientClose after a closeConnection response sends the GOAWAY and leaves the closing to the client")
    func awaitClientCloseSendsGoAwayAndLeavesTheCloseToTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("bye".utf8), closeConnection: true, fault: MockFault(.awaitClientClose, .afterResponse)))

        let result = curl2(server, "/bye")

        #expect(result.exitCode == 0 && result.body == "bye", "\(result.stderr)")
        #expect(try server.waitForClose(ofConnection: 0).closedBy == .client)
    }

    @Test("nghttp sees the scripted response")
    func nghttpSeesTheScriptedResponse() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 202, body: Data("to nghttp".utf8)))

        let result = TestProcess.run(
            "/usr/bin/nghttp", ["-v", "--timeout=5", server.url("/n").absoluteString],
            environment: ["SSL_CERT_FILE": TestCertificates.shared.root])

        #expect(result.stdout.contains(":status: 202"), "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("to nghttp"), "\(result.stdout)")
        #expect(try server.takeRequest().version == "HTTP/2")
    }
}
