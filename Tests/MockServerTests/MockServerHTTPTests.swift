import Foundation
import MockServer
import XCTest

/// Serving, scripting and recording over plain HTTP, driven by the curl CLI.
final class MockServerHTTPTests: ServerTestCase {
    func testQueuedResponsesAreServedInOrderAndRequestsRecorded() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8)))
        server.enqueue(MockResponse(status: 503, body: Data("busy".utf8)))

        let first = Curl.run(server.url("/one?x=1"), ["-H", "X-Test: a"])
        let second = Curl.run(server.url("/two"), ["-d", "payload"])

        XCTAssertEqual(first.exitCode, 0)
        XCTAssertEqual(first.status, 200)
        XCTAssertEqual(first.body, "{}")
        XCTAssertEqual(second.status, 503)
        XCTAssertEqual(second.body, "busy")
        let one = try server.takeRequest(timeout: .seconds(2))
        XCTAssertEqual(one.method, "GET")
        XCTAssertEqual(one.target, "/one?x=1")
        XCTAssertEqual(one.path, "/one")
        XCTAssertEqual(one.header("x-test"), "a")
        XCTAssertEqual(one.connectionIndex, 0)
        XCTAssertNil(one.sniName)
        XCTAssertNil(one.tlsVersion)
        let two = try server.takeRequest(timeout: .seconds(2))
        XCTAssertEqual(two.method, "POST")
        XCTAssertEqual(two.bodyText, "payload")
        XCTAssertEqual(two.connectionIndex, 1)
    }

    func testKeepAliveRequestsShareAConnectionWithIncreasingExchangeIndex() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("a".utf8)))
        server.enqueue(MockResponse(body: Data("b".utf8)))

        let result = Curl.run(server.url("/a"), [server.url("/b").absoluteString])

        XCTAssertEqual(result.exitCode, 0)
        let first = try server.takeRequest(timeout: .seconds(2))
        let second = try server.takeRequest(timeout: .seconds(2))
        XCTAssertEqual([first.connectionIndex, second.connectionIndex], [0, 0])
        XCTAssertEqual([first.exchangeIndex, second.exchangeIndex], [0, 1])
        XCTAssertEqual(server.journal.count, 1)
        XCTAssertEqual(closedRecord(server)?.requestCount, 2)
    }

    func testConnectionCloseResponseMakesTheClientOpenANewConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(closeConnection: true))
        server.enqueue(MockResponse())

        XCTAssertEqual(Curl.run(server.url("/a"), [server.url("/b").absoluteString]).exitCode, 0)

        XCTAssertEqual(try server.takeRequest().connectionIndex, 0)
        XCTAssertEqual(try server.takeRequest().connectionIndex, 1)
        XCTAssertEqual(closedRecord(server, 0)?.closedBy, .server)
    }

    func testTheDispatcherAnswersInsteadOfTheQueue() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher { request in
            MockResponse(status: request.path == "/missing" ? 404 : 200, body: Data(request.path.utf8))
        }

        XCTAssertEqual(Curl.run(server.url("/missing")).status, 404)
        let found = Curl.run(server.url("/here"))
        XCTAssertEqual(found.status, 200)
        XCTAssertEqual(found.body, "/here")
    }

    func testAnEmptyQueueAnswers404AtOnce() throws {
        let server = try makeServer()
        XCTAssertEqual(Curl.run(server.url("/")).status, 404)
    }

    func testAChunkedRequestBodyIsDecodedAndItsChunkSizesRecorded() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        let result = Curl.run(server.url("/upload"), ["-H", "Transfer-Encoding: chunked", "--data-binary", "hello chunked"])

        XCTAssertEqual(result.status, 200)
        let request = try server.takeRequest()
        XCTAssertEqual(request.bodyText, "hello chunked")
        XCTAssertEqual(request.chunkSizes, [13])
    }

    func testExpect100ContinueIsAnsweredBeforeTheBody() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 201))

        // curl waits a full second for `100 Continue` before sending anyway; a fast answer means the server sent it.
        let start = Date()
        let result = Curl.run(server.url("/put"), ["-H", "Expect: 100-continue", "--data-binary", "body", "-X", "PUT"])

        XCTAssertEqual(result.status, 201)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.9)
        XCTAssertEqual(try server.takeRequest().bodyText, "body")
    }

    func testAChunkedResponseIsDecodedByTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("abcdefghij".utf8), chunked: [1, 2, 3]))

        let result = Curl.run(server.url("/"))

        XCTAssertEqual(result.exitCode, 0)
        XCTAssertEqual(result.body, "abcdefghij")
    }

    func testAMalformedRequestGets400AndIsRecorded() throws {
        let server = try makeServer()

        let reply = try rawExchange(server, "BROKEN\r\n\r\n")

        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 400 Bad Request"), reply)
        let request = try server.takeRequest()
        XCTAssertNotNil(request.failure)
        XCTAssertEqual(closedRecord(server)?.closedBy, .server)
    }

    func testAnOversizedRequestHeadGets400() throws {
        let server = try makeServer()

        let reply = try rawExchange(server, "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")

        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 400"), reply)
        XCTAssertTrue(try server.takeRequest().failure?.contains("64 KiB") ?? false)
    }

    func testHeadDelayPostponesTheResponse() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(headDelay: .milliseconds(300)))

        let start = Date()
        XCTAssertEqual(Curl.run(server.url("/")).status, 200)
        XCTAssertGreaterThanOrEqual(Date().timeIntervalSince(start), 0.3)
    }

    func testThrottledResponsesArriveIntact() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data(String(repeating: "x", count: 100).utf8), throttle: .init(bytes: 40, per: .milliseconds(20))))

        let result = Curl.run(server.url("/"))

        XCTAssertEqual(result.body.count, 100)
    }

    func testTakeRequestThrowsATimeoutWhenNoRequestArrives() throws {
        let server = try makeServer()
        XCTAssertThrowsError(try server.takeRequest(timeout: .milliseconds(100))) { error in
            XCTAssertEqual(error as? MockServerError, .timeout)
        }
    }

    func testWaitForConnectionsReturnsOnceEnoughAreAccepted() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())
        server.enqueue(MockResponse())
        XCTAssertThrowsError(try server.waitForConnections(1, timeout: .milliseconds(50)))

        _ = Curl.run(server.url("/"))
        _ = Curl.run(server.url("/"))

        XCTAssertNoThrow(try server.waitForConnections(2, timeout: .seconds(2)))
        XCTAssertEqual(server.journal.map(\.index), [0, 1])
    }

    func testTheJournalCountsApplicationBytesAndTheClientClose() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        _ = Curl.run(server.url("/"), ["-d", "12345"])

        let record = try XCTUnwrap(closedRecord(server))
        XCTAssertEqual(record.handshake, .notTLS)
        XCTAssertEqual(record.closedBy, .client)
        XCTAssertEqual(record.closeKind, .fin)
        XCTAssertGreaterThan(record.applicationBytesReceived, 5)
        XCTAssertGreaterThan(record.peerPort, 0)
    }

    func testShutdownReportsUnusedScriptAndUntakenRequestsAndIsIdempotent() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 201))
        server.enqueue(MockResponse(status: 202))
        _ = Curl.run(server.url("/"))

        let report = server.shutdown()

        XCTAssertEqual(report.unconsumedResponses.map(\.status), [202])
        XCTAssertEqual(report.untakenRequests.map(\.path), ["/"])
        XCTAssertFalse(report.isClean)
        XCTAssertEqual(server.shutdown().unconsumedResponses.count, 1)
        XCTAssertEqual(Curl.run(server.url("/"), maxTime: 1).exitCode, 7, "nothing listens after shutdown")
    }

    func testDroppingTheLastReferenceShutsTheServerDown() throws {
        var server: MockServer? = try MockServer()
        let url = server!.url("/")
        server = nil

        XCTAssertEqual(Curl.run(url, maxTime: 1).exitCode, 7, "nothing listens once the server is released")
    }

    func testShutdownUnblocksAStalledConnectionPromptly() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: .stallAfterRequest))
        let client = Thread { _ = Curl.run(server.url("/"), maxTime: 10) }
        client.start()
        _ = try server.takeRequest(timeout: .seconds(3))

        let start = Date()
        let report = server.shutdown()

        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
        XCTAssertEqual(report.unfinishedConnections, 0)
        XCTAssertEqual(server.journal.first?.closedBy, .server)
    }

    func testTheServerCanListenOnIPv6Loopback() throws {
        let server = try makeServer(bindAddress: "::1")
        server.enqueue(MockResponse(body: Data("six".utf8)))

        XCTAssertEqual(server.url("/").absoluteString, "http://[::1]:\(server.port)/")
        XCTAssertEqual(Curl.run(server.url("/")).body, "six")
    }

    func testManyConcurrentConnectionsAreAllServed() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher { _ in MockResponse(body: Data("ok".utf8)) }
        let urls = (0..<20).map { server.url("/\($0)").absoluteString }

        // `--parallel` makes curl open several connections at once.
        let result = TestProcess.run("/usr/bin/curl", ["-sS", "--max-time", "5", "--parallel", "--parallel-max", "10"] + urls)

        XCTAssertEqual(result.status, 0, result.stderr)
        XCTAssertEqual(result.stdout, String(repeating: "ok", count: 20))
        XCTAssertGreaterThan(server.journal.count, 1)
    }

    func testTakeRequestAfterShutdownThrowsShutDownAtOnce() throws {
        let server = try makeServer()
        server.shutdown()

        let start = Date()
        XCTAssertThrowsError(try server.takeRequest(timeout: .seconds(5))) { error in
            XCTAssertEqual(error as? MockServerError, .shutDown)
        }
        XCTAssertLessThan(Date().timeIntervalSince(start), 1)
    }

    func testWithoutRecordingRequestsTheJournalStillCountsThem() throws {
        let server = try MockServer(recordsRequests: false)
        defer { server.shutdown() }
        server.enqueue(MockResponse())

        XCTAssertEqual(Curl.run(server.url("/")).status, 200)

        XCTAssertEqual(closedRecord(server)?.requestCount, 1)
        XCTAssertThrowsError(try server.takeRequest(timeout: .milliseconds(50)))
    }

    func testAMalformedChunkedRequestBodyGets400() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        let reply = try rawExchange(server, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")

        XCTAssertTrue(reply.hasPrefix("HTTP/1.1 400"), reply)
        XCTAssertEqual(try server.takeRequest().failure, "malformed chunk size line")
    }

    func testPipelinedRequestsAreAnsweredInOrderOnOneConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("1".utf8)))
        server.enqueue(MockResponse(body: Data("2".utf8), closeConnection: true))

        let reply = try rawExchange(server, "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 1\r\n\r\nx")

        XCTAssertTrue(reply.hasSuffix("\r\n\r\n2"), reply)
        XCTAssertEqual(reply.components(separatedBy: "HTTP/1.1 200").count - 1, 2)
        XCTAssertEqual(try server.takeRequest().path, "/a")
        XCTAssertEqual(try server.takeRequest().exchangeIndex, 1)
    }

    func testInformationalResponsesAreSkippedByTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("final".utf8)).with { $0.informational = [MockResponse(status: 103)] })

        let result = Curl.run(server.url("/"))

        XCTAssertEqual(result.status, 200)
        XCTAssertEqual(result.body, "final")
    }

    private func rawExchange(_ server: MockServer, _ request: String) throws -> String {
        String(decoding: try RawClient.exchange(port: server.port, Array(request.utf8)), as: UTF8.self)
    }
}
