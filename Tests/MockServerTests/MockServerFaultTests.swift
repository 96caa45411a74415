import Foundation
import MockServer
import TestTraits
import Testing

/// Each fault, seen through curl's exit code (over plain HTTP unless the fault is about TLS).
@Suite("Each fault, seen through curl", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerFaultTests: ServerTests {
    private func curlExit(_ fault: MockFault, body: String = "0123456789", extra: [String] = [], maxTime: Double = 5) throws -> (
        Curl.Result, MockServer
    ) {
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

    @Test("closeIdleAfterResponse answers with keep-alive, closes, and counts what the client sends after the close")
    func closeIdleCountsBytesSentAfterTheClose() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("first".utf8), fault: .closeIdleAfterResponse))
        let fd = try RawClient.connectIdle(port: server.port)
        defer { close(fd) }
        _ = "GET / HTTP/1.1\r\n\r\n".withCString { send(fd, $0, 18, Int32(MSG_NOSIGNAL)) }
        var reply = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        // The response, then the FIN: read until it.
        while case let count = recv(fd, &reply, reply.count, 0), count > 0 { received += reply[0..<count] }
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix("HTTP/1.1 200") && text.hasSuffix("first") && !text.lowercased().contains("connection: close"), "\(text)")
        #expect(try server.waitForClose(ofConnection: 0).closedBy == .server)

        _ = "GET /late HTTP/1.1\r\n\r\n".withCString { send(fd, $0, 22, Int32(MSG_NOSIGNAL)) }
        shutdown(fd, Int32(SHUT_WR))
        let deadline = Date(timeIntervalSinceNow: 5)
        while server.journal[0].bytesAfterClose < 22, Date() < deadline { usleep(10_000) }
        #expect(server.journal[0].bytesAfterClose == 22)
        #expect(server.journal[0].requestCount == 1)
    }

    @Test("awaitClientClose after a Connection: close response leaves the closing to the client")
    func awaitClientCloseLeavesTheCloseToTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("bye".utf8), closeConnection: true, fault: MockFault(.awaitClientClose, .afterResponse)))
        let fd = try RawClient.connectIdle(port: server.port)
        _ = "GET / HTTP/1.1\r\n\r\n".withCString { send(fd, $0, 18, Int32(MSG_NOSIGNAL)) }
        var reply = [UInt8](repeating: 0, count: 4096)
        var received: [UInt8] = []
        // The whole response, and the connection still open: the server closes no more.
        while !String(decoding: received, as: UTF8.self).hasSuffix("bye"), case let count = recv(fd, &reply, reply.count, 0), count > 0 {
            received += reply[0..<count]
        }
        #expect(String(decoding: received, as: UTF8.self).lowercased().contains("connection: close"))
        #expect(server.journal[0].closedBy == nil)
        close(fd)
        #expect(try server.waitForClose(ofConnection: 0).closedBy == .client)
    }

    @Test("closeWithNoReply is an empty reply to curl")
    func closeWithNoReplyIsAnEmptyReply() throws {
        let (result, server) = try curlExit(.closeWithNoReply)
        #expect(result.exitCode == 52, "\(result.stderr)")
        #expect(closedRecord(server)?.closeKind == .fin)
        #expect(server.journal.first?.fault == .closeWithNoReply)
    }

    @Test("resetWithNoReply is a receive failure")
    func resetWithNoReplyIsARecvFailure() throws {
        let (result, server) = try curlExit(.resetWithNoReply)
        #expect(result.exitCode == 56, "\(result.stderr)")
        #expect(closedRecord(server)?.closeKind == .reset)
        #expect(server.journal.first?.closedBy == .server)
    }

    @Test("stallAfterRequest times the client out")
    func stallAfterRequestTimesTheClientOut() throws {
        let (result, _) = try curlExit(.stallAfterRequest, maxTime: 1)
        #expect(result.exitCode == 28, "\(result.stderr)")
    }

    @Test("closeAfterBodyBytes is a partial file")
    func closeAfterBodyBytesIsAPartialFile() throws {
        let (result, _) = try curlExit(.closeAfterBodyBytes(3))
        #expect(result.exitCode == 18, "\(result.stderr)")
        #expect(result.body == "012")
    }

    @Test("resetAfterBodyBytes is a receive failure")
    func resetAfterBodyBytesIsARecvFailure() throws {
        let (result, _) = try curlExit(.resetAfterBodyBytes(3))
        #expect(result.exitCode == 56, "\(result.stderr)")
    }

    @Test("stallAfterBodyBytes times the client out")
    func stallAfterBodyBytesTimesTheClientOut() throws {
        let (result, _) = try curlExit(.stallAfterBodyBytes(3), maxTime: 1)
        #expect(result.exitCode == 28, "\(result.stderr)")
    }

    @Test("closeBeforeReadingRequest is an empty reply")
    func closeBeforeReadingRequestIsAnEmptyReply() throws {
        let (result, server) = try curlExit(.closeBeforeReadingRequest)
        #expect([52, 56].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
        #expect(server.journal.first?.requestCount == 0)
    }

    @Test("closeBeforeReadingRequest hits the reused connection")
    func closeBeforeReadingRequestHitsTheReusedConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("first".utf8)))
        server.enqueue(MockResponse(fault: .closeBeforeReadingRequest))
        server.enqueue(MockResponse(body: Data("retried".utf8)))

        // curl retries a request that failed on a reused connection once, on a new connection.
        let result = Curl.run(server.url("/a"), [server.url("/b").absoluteString])

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.output.contains("retried"))
        #expect(server.journal.count == 2)
        #expect(server.journal.first?.fault == .closeBeforeReadingRequest)
    }

    @Test("closeAfterRequestBodyBytes cuts the upload")
    func closeAfterRequestBodyBytesCutsTheUpload() throws {
        let (result, server) = try curlExit(.closeAfterRequestBodyBytes(10), extra: ["--data-binary", try uploadFile()])
        #expect(result.exitCode != 0)
        let request = try server.takeRequest()
        #expect(request.body.count == 10)
        #expect(request.failure != nil)
    }

    @Test("resetAfterRequestBodyBytes cuts the upload")
    func resetAfterRequestBodyBytesCutsTheUpload() throws {
        let (result, server) = try curlExit(.resetAfterRequestBodyBytes(10), extra: ["--data-binary", try uploadFile()])
        #expect([55, 56].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
        #expect(closedRecord(server)?.closeKind == .reset)
    }

    @Test("answerWithoutReadingBody delivers the early response")
    func answerWithoutReadingBodyDeliversTheEarlyResponse() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 413, fault: .answerWithoutReadingBody))

        let result = Curl.run(server.url("/"), ["-H", "Expect: 100-continue", "--data-binary", try uploadFile()])

        #expect(result.status == 413, "\(result.stderr)")
        #expect(try server.takeRequest().body.count == 0)
    }

    @Test("closeAtAccept on plain HTTP is an empty reply")
    func plainHTTPCloseAtAcceptIsAnEmptyReply() throws {
        let (result, server) = try curlExit(.closeAtAccept)
        #expect(result.exitCode == 52, "\(result.stderr)")
        #expect(server.journal.first?.fault == .closeAtAccept)
        #expect(server.shutdown().isClean, "the fault's response was consumed at accept")
    }

    struct ClientHelloCase: Sendable, CustomTestStringConvertible {
        let fault: MockFault
        let exitCodes: Set<Int32>
        let status: Int?
        var testDescription: String { "\(fault)" }
    }

    /// On a plain-HTTP server the ClientHello faults fire after the client's first bytes: here, its request.
    @Test(
        "a ClientHello fault on a plain-HTTP server fires after the client's first bytes",
        arguments: [
            ClientHelloCase(fault: .closeAfterClientHello, exitCodes: [52], status: nil),
            // The RST arrives after curl sent its request; it may read it as a reset (56) or, rarely, as an EOF (52).
            ClientHelloCase(fault: .resetAfterClientHello, exitCodes: [52, 56], status: nil),
            ClientHelloCase(fault: .stallAfterClientHello, exitCodes: [28], status: nil),
            // The "plaintext reply" is an ordinary HTTP response to a plain-HTTP client.
            ClientHelloCase(fault: .plaintextReplyToClientHello, exitCodes: [0], status: 400),
            // Seven bytes of TLS alert are no HTTP status line: curl 7.88 calls them HTTP/0.9 and refuses them.
            ClientHelloCase(fault: .fatalAlertAfterClientHello, exitCodes: [1, 8], status: nil),
        ])
    func clientHelloFaultOnAPlainHTTPServer(_ testCase: ClientHelloCase) throws {
        let fault = testCase.fault
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("never sent".utf8), fault: fault))

        let result = Curl.run(server.url("/first"), maxTime: fault == .stallAfterClientHello ? 1 : 5)

        #expect(testCase.exitCodes.contains(result.exitCode), "\(fault): \(result.exitCode) \(result.stderr)")
        if let status = testCase.status { #expect(result.status == status, "\(fault)") }
        #expect(!result.output.contains("never sent"), "\(fault)")
        let record = closedRecord(server)
        #expect(record?.fault == fault)
        #expect(record?.handshake == .notTLS)
        #expect(record?.requestCount == 0, "\(fault): the bytes were read as a ClientHello, not a request")
        #expect((record?.applicationBytesReceived ?? 0) > 0, "\(fault): the fault waited for the client's bytes")
        #expect(record?.closeKind == (fault == .resetAfterClientHello ? .reset : .fin), "\(fault)")
        #expect((try? server.takeRequest(timeout: .milliseconds(100))) == nil, "\(fault)")
        #expect(server.shutdown().isClean, "\(fault): the response was consumed by the fault")
    }

    @Test("a fault is scoped to its response so the next connection succeeds")
    func aFaultIsScopedToItsResponseSoTheNextConnectionSucceeds() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: .resetAtAccept))
        server.enqueue(MockResponse(body: Data("ok".utf8)))

        // The RST can land while curl still counts the TCP connect as in progress (7) or after it (56).
        #expect([7, 56].contains(Curl.run(server.url("/")).exitCode))
        #expect(Curl.run(server.url("/")).body == "ok")
        #expect(server.journal.map(\.fault) == [.resetAtAccept, nil])
    }

    @Test("a dispatcher can fault every connection")
    func aDispatcherCanFaultEveryConnection() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher(connectionFault: { _ in .closeAtAccept }) { _ in MockResponse() }

        #expect(Curl.run(server.url("/")).exitCode == 52)
        #expect(Curl.run(server.url("/")).exitCode == 52)
    }

    @Test("a dispatcher's connection-fault closure may call back into the server: it runs outside the server's lock")
    func aConnectionFaultClosureMayUseTheServer() throws {
        let server = try makeServer()
        let seen = JournalCounts()
        // Reading the journal takes the server's lock: called under it, this closure deadlocked the server.
        server.dispatcher = MockDispatcher(connectionFault: { [server] _ in
            seen.append(server.journal.count)
            return nil
        }) { _ in MockResponse(status: 200, body: Data("ok".utf8)) }

        #expect(Curl.run(server.url("/")).body == "ok")
        #expect(!seen.values.isEmpty)
    }

    @Test("a request-body fault from the dispatcher closes with no reply")
    func aRequestBodyFaultFromTheDispatcherClosesWithNoReply() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher { _ in MockResponse(fault: .resetAfterRequestBodyBytes(1)) }

        #expect(Curl.run(server.url("/"), ["-d", "x"]).exitCode == 56)
        #expect(try server.takeRequest().bodyText == "x")
    }
}

/// Journal counts a closure saw, from the server's threads.
private final class JournalCounts: @unchecked Sendable {  // `counts` is touched only under `lock`
    private let lock = NSLock()
    private var counts: [Int] = []
    func append(_ count: Int) { lock.withLock { counts.append(count) } }
    var values: [Int] { lock.withLock { counts } }
}
