import Foundation
import MockServer
import TestTraits
import Testing

/// Waiting for requests and connections, the journal, shutdown, and load.
extension MockServerHTTPTests {
    @Test("takeRequest throws a timeout when no request arrives")
    func takeRequestThrowsATimeoutWhenNoRequestArrives() throws {
        let server = try makeServer()
        #expect(throws: MockServerError.timeout) { try server.takeRequest(timeout: .milliseconds(100)) }
    }

    @Test("waitForConnections returns once enough are accepted")
    func waitForConnectionsReturnsOnceEnoughAreAccepted() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())
        server.enqueue(MockResponse())
        #expect(throws: MockServerError.timeout) { try server.waitForConnections(1, timeout: .milliseconds(50)) }

        _ = Curl.run(server.url("/"))
        _ = Curl.run(server.url("/"))

        #expect(throws: Never.self) { try server.waitForConnections(2, timeout: .seconds(2)) }
        #expect(server.journal.map(\.index) == [0, 1])
    }

    @Test("the journal counts application bytes and the client close")
    func theJournalCountsApplicationBytesAndTheClientClose() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        _ = Curl.run(server.url("/"), ["-d", "12345"])

        let record = try #require(closedRecord(server))
        #expect(record.handshake == .notTLS)
        #expect(record.closedBy == .client)
        #expect(record.closeKind == .fin)
        #expect(record.applicationBytesReceived > 5)
        #expect(record.peerPort > 0)
    }

    @Test("shutdown reports the unused script and untaken requests, and is idempotent")
    func shutdownReportsUnusedScriptAndUntakenRequestsAndIsIdempotent() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 201))
        server.enqueue(MockResponse(status: 202))
        _ = Curl.run(server.url("/"))

        let report = server.shutdown()

        #expect(report.unconsumedResponses.map(\.status) == [202])
        #expect(report.untakenRequests.map(\.path) == ["/"])
        #expect(!report.isClean)
        #expect(server.shutdown().unconsumedResponses.count == 1)
        #expect(Curl.run(server.url("/"), maxTime: 1).exitCode == 7, "nothing listens after shutdown")
    }

    @Test("dropping the last reference shuts the server down")
    func droppingTheLastReferenceShutsTheServerDown() throws {
        var server: MockServer? = try MockServer()
        let url = server!.url("/")
        server = nil

        #expect(Curl.run(url, maxTime: 1).exitCode == 7, "nothing listens once the server is released")
    }

    @Test("shutdown unblocks a stalled connection promptly")
    func shutdownUnblocksAStalledConnectionPromptly() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: .stallAfterRequest))
        let client = Thread { _ = Curl.run(server.url("/"), maxTime: 10) }
        client.start()
        _ = try server.takeRequest(timeout: .seconds(3))

        let start = Date()
        let report = server.shutdown()

        #expect(Date().timeIntervalSince(start) < 1)
        #expect(report.unfinishedConnections == 0)
        #expect(server.journal.first?.closedBy == .server)
    }

    @Test("the server can listen on the IPv6 loopback")
    func theServerCanListenOnIPv6Loopback() throws {
        let server = try makeServer(bindAddress: "::1")
        server.enqueue(MockResponse(body: Data("six".utf8)))

        #expect(server.url("/").absoluteString == "http://[::1]:\(server.port)/")
        #expect(Curl.run(server.url("/")).body == "six")
    }

    @Test("many concurrent connections are all served")
    func manyConcurrentConnectionsAreAllServed() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher { _ in MockResponse(body: Data("ok".utf8)) }
        // Twenty connections are open at once, and the newest is asked first: a server that served one connection
        // at a time would never answer it while the older ones stay open.
        let connections = try (0..<20).map { _ in try RawClient.connectIdle(port: server.port) }
        defer { connections.forEach { close($0) } }

        let replies = connections.reversed().enumerated().map { index, fd in
            String(decoding: RawClient.exchange(on: fd, Array("GET /\(index) HTTP/1.1\r\nConnection: close\r\n\r\n".utf8)), as: UTF8.self)
        }

        #expect(replies.allSatisfy { $0.hasPrefix("HTTP/1.1 200") && $0.hasSuffix("ok") }, "\(replies)")
        #expect(server.journal.count == 20)
    }

    @Test("takeRequest after shutdown throws shutDown at once")
    func takeRequestAfterShutdownThrowsShutDownAtOnce() throws {
        let server = try makeServer()
        server.shutdown()

        let start = Date()
        #expect(throws: MockServerError.shutDown) { try server.takeRequest(timeout: .seconds(5)) }
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test("without recording requests, the journal still counts them")
    func withoutRecordingRequestsTheJournalStillCountsThem() throws {
        let server = try MockServer(recordsRequests: false)
        defer { server.shutdown() }
        server.enqueue(MockResponse())

        #expect(Curl.run(server.url("/")).status == 200)

        #expect(closedRecord(server)?.requestCount == 1)
        #expect(throws: MockServerError.timeout) { try server.takeRequest(timeout: .milliseconds(50)) }
    }

    @Test("a malformed chunked request body gets 400")
    func aMalformedChunkedRequestBodyGets400() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        let reply = try rawExchange(server, "POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nabc\r\n0\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 400"), "\(reply)")
        #expect(try server.takeRequest().failure == "malformed chunk size line")
    }
}
