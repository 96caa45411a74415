import Foundation
import MockServer
import XCTest

/// Each fault, seen through curl's exit code (over plain HTTP unless the fault is about TLS).
final class MockServerFaultTests: ServerTestCase {
    private func curlExit(_ fault: MockFault, body: String = "0123456789", extra: [String] = [], maxTime: Double = 5) throws -> (Curl.Result, MockServer) {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data(body.utf8), fault: fault))
        return (Curl.run(server.url("/"), extra, maxTime: maxTime), server)
    }

    /// A 2 MB upload as a curl `@file` argument (too large for the command line, and larger than socket buffers).
    private func uploadFile() throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mockserver-upload-\(getpid())")
        if !FileManager.default.fileExists(atPath: url.path) {
            try Data(repeating: UInt8(ascii: "u"), count: 2_000_000).write(to: url)
        }
        return "@" + url.path
    }

    func testCloseWithNoReplyIsAnEmptyReply() throws {
        let (result, server) = try curlExit(.closeWithNoReply)
        XCTAssertEqual(result.exitCode, 52, result.stderr)
        XCTAssertEqual(closedRecord(server)?.closeKind, .fin)
        XCTAssertEqual(server.journal.first?.fault, .closeWithNoReply)
    }

    func testResetWithNoReplyIsARecvFailure() throws {
        let (result, server) = try curlExit(.resetWithNoReply)
        XCTAssertEqual(result.exitCode, 56, result.stderr)
        XCTAssertEqual(closedRecord(server)?.closeKind, .reset)
        XCTAssertEqual(server.journal.first?.closedBy, .server)
    }

    func testStallAfterRequestTimesTheClientOut() throws {
        let (result, _) = try curlExit(.stallAfterRequest, maxTime: 1)
        XCTAssertEqual(result.exitCode, 28, result.stderr)
    }

    func testCloseAfterBodyBytesIsAPartialFile() throws {
        let (result, _) = try curlExit(.closeAfterBodyBytes(3))
        XCTAssertEqual(result.exitCode, 18, result.stderr)
        XCTAssertEqual(result.body, "012")
    }

    func testResetAfterBodyBytesIsARecvFailure() throws {
        let (result, _) = try curlExit(.resetAfterBodyBytes(3))
        XCTAssertEqual(result.exitCode, 56, result.stderr)
    }

    func testStallAfterBodyBytesTimesTheClientOut() throws {
        let (result, _) = try curlExit(.stallAfterBodyBytes(3), maxTime: 1)
        XCTAssertEqual(result.exitCode, 28, result.stderr)
    }

    func testGarbageThenCloseIsRejected() throws {
        let (result, _) = try curlExit(.garbageThenClose(Data("\u{01}\u{02}garbage\r\n\r\n".utf8)))
        XCTAssertTrue([1, 8].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
    }

    func testAnHTTP09ReplyIsRejected() throws {
        let (result, _) = try curlExit(.http09Reply)
        XCTAssertTrue([1, 8].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
    }

    func testAMalformedStatusLineIsRejected() throws {
        let (result, _) = try curlExit(.malformedStatusLine)
        XCTAssertEqual(result.exitCode, 1, result.stderr)
        XCTAssertTrue(result.stderr.contains("Unsupported response code"), result.stderr)
    }

    func testAHeadWithoutItsBlankLineIsAPartialFile() throws {
        let (result, _) = try curlExit(.headWithoutBlankLineThenClose)
        // curl 7.88 ends the head at EOF, then misses the body that Content-Length announced.
        XCTAssertEqual(result.exitCode, 18, result.stderr)
    }

    func testAnOversizedHeadIsRejected() throws {
        let (result, _) = try curlExit(.oversizedHead(400_000))
        // curl caps a header at 100 KiB and reports it as out of memory (27).
        XCTAssertEqual(result.exitCode, 27, result.stderr)
    }

    func testConflictingContentLengthsFailTheTransfer() throws {
        let (result, _) = try curlExit(.conflictingContentLength)
        // curl 7.88 does not reject the conflict: it believes the last (larger) value and misses a byte.
        XCTAssertEqual(result.exitCode, 18, result.stderr)
    }

    func testAMalformedChunkSizeIsRejected() throws {
        let (result, _) = try curlExit(.malformedChunkSize)
        XCTAssertEqual(result.exitCode, 56, result.stderr)
    }

    func testAMissingLastChunkIsAPartialFile() throws {
        let (result, _) = try curlExit(.missingLastChunkThenClose)
        XCTAssertEqual(result.exitCode, 18, result.stderr)
    }

    func testExtraBytesBeyondContentLengthAreNotPartOfTheBody() throws {
        let (result, _) = try curlExit(.extraBytesBeyondContentLength(Data("EXTRA".utf8)))
        XCTAssertEqual(result.exitCode, 0, result.stderr)
        XCTAssertEqual(result.body, "0123456789")
    }

    func testCloseBeforeReadingRequestIsAnEmptyReply() throws {
        let (result, server) = try curlExit(.closeBeforeReadingRequest)
        XCTAssertTrue([52, 56].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
        XCTAssertEqual(server.journal.first?.requestCount, 0)
    }

    func testCloseBeforeReadingRequestHitsTheReusedConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("first".utf8)))
        server.enqueue(MockResponse(fault: .closeBeforeReadingRequest))
        server.enqueue(MockResponse(body: Data("retried".utf8)))

        // curl retries a request that failed on a reused connection once, on a new connection.
        let result = Curl.run(server.url("/a"), [server.url("/b").absoluteString])

        XCTAssertEqual(result.exitCode, 0, result.stderr)
        XCTAssertTrue(result.output.contains("retried"))
        XCTAssertEqual(server.journal.count, 2)
        XCTAssertEqual(server.journal.first?.fault, .closeBeforeReadingRequest)
    }

    func testCloseAfterRequestBodyBytesCutsTheUpload() throws {
        let (result, server) = try curlExit(.closeAfterRequestBodyBytes(10), extra: ["--data-binary", try uploadFile()])
        XCTAssertNotEqual(result.exitCode, 0)
        let request = try server.takeRequest()
        XCTAssertEqual(request.body.count, 10)
        XCTAssertNotNil(request.failure)
    }

    func testResetAfterRequestBodyBytesCutsTheUpload() throws {
        let (result, server) = try curlExit(.resetAfterRequestBodyBytes(10), extra: ["--data-binary", try uploadFile()])
        XCTAssertTrue([55, 56].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
        XCTAssertEqual(closedRecord(server)?.closeKind, .reset)
    }

    func testAnswerWithoutReadingBodyDeliversTheEarlyResponse() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 413, fault: .answerWithoutReadingBody))

        let result = Curl.run(server.url("/"), ["-H", "Expect: 100-continue", "--data-binary", try uploadFile()])

        XCTAssertEqual(result.status, 413, result.stderr)
        XCTAssertEqual(try server.takeRequest().body.count, 0)
    }

    func testPlainHTTPCloseAtAcceptIsAnEmptyReply() throws {
        let (result, server) = try curlExit(.closeAtAccept)
        XCTAssertEqual(result.exitCode, 52, result.stderr)
        XCTAssertEqual(server.journal.first?.fault, .closeAtAccept)
        XCTAssertTrue(server.shutdown().isClean, "the fault's response was consumed at accept")
    }

    /// On a plain-HTTP server the ClientHello faults fire after the client's first bytes: here, its request.
    func testClientHelloFaultsOnAPlainHTTPServerFireAfterTheFirstBytes() throws {
        let cases: [(fault: MockFault, exitCodes: Set<Int32>, status: Int?)] = [
            (.closeAfterClientHello, [52], nil),
            // The RST arrives after curl sent its request; it may read it as a reset (56) or, rarely, as an EOF (52).
            (.resetAfterClientHello, [52, 56], nil),
            (.stallAfterClientHello, [28], nil),
            // The "plaintext reply" is an ordinary HTTP response to a plain-HTTP client.
            (.plaintextReplyToClientHello, [0], 400),
            // Seven bytes of TLS alert are no HTTP status line: curl 7.88 calls them HTTP/0.9 and refuses them.
            (.fatalAlertAfterClientHello, [1, 8], nil),
        ]
        for (fault, exitCodes, status) in cases {
            let server = try makeServer()
            server.enqueue(MockResponse(body: Data("never sent".utf8), fault: fault))

            let result = Curl.run(server.url("/first"), maxTime: fault == .stallAfterClientHello ? 1 : 5)

            XCTAssertTrue(exitCodes.contains(result.exitCode), "\(fault): \(result.exitCode) \(result.stderr)")
            if let status { XCTAssertEqual(result.status, status, "\(fault)") }
            XCTAssertFalse(result.output.contains("never sent"), "\(fault)")
            let record = closedRecord(server)
            XCTAssertEqual(record?.fault, fault)
            XCTAssertEqual(record?.handshake, .notTLS)
            XCTAssertEqual(record?.requestCount, 0, "\(fault): the bytes were read as a ClientHello, not a request")
            XCTAssertGreaterThan(record?.applicationBytesReceived ?? 0, 0, "\(fault): the fault waited for the client's bytes")
            XCTAssertEqual(record?.closeKind, fault == .resetAfterClientHello ? .reset : .fin, "\(fault)")
            XCTAssertNil(try? server.takeRequest(timeout: .milliseconds(100)), "\(fault)")
            XCTAssertTrue(server.shutdown().isClean, "\(fault): the response was consumed by the fault")
        }
    }

    func testAFaultIsScopedToItsResponseSoTheNextConnectionSucceeds() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: .resetAtAccept))
        server.enqueue(MockResponse(body: Data("ok".utf8)))

        // The RST can land while curl still counts the TCP connect as in progress (7) or after it (56).
        XCTAssertTrue([7, 56].contains(Curl.run(server.url("/")).exitCode))
        XCTAssertEqual(Curl.run(server.url("/")).body, "ok")
        XCTAssertEqual(server.journal.map(\.fault), [.resetAtAccept, nil])
    }

    func testADispatcherCanFaultEveryConnection() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher(connectionFault: { _ in .closeAtAccept }) { _ in MockResponse() }

        XCTAssertEqual(Curl.run(server.url("/")).exitCode, 52)
        XCTAssertEqual(Curl.run(server.url("/")).exitCode, 52)
    }
    func testARequestBodyFaultFromTheDispatcherClosesWithNoReply() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher { _ in MockResponse(fault: .resetAfterRequestBodyBytes(1)) }

        XCTAssertEqual(Curl.run(server.url("/"), ["-d", "x"]).exitCode, 56)
        XCTAssertEqual(try server.takeRequest().bodyText, "x")
    }
}
