import Foundation
import MockServer
import TestTraits
import Testing

/// Serving, scripting and recording over plain HTTP, driven by the curl CLI.
@Suite("Serving, scripting and recording over plain HTTP", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerHTTPTests: ServerTests {
    @Test("queued responses are served in order and the requests recorded")
    func queuedResponsesAreServedInOrderAndRequestsRecorded() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data("{}".utf8)))
        server.enqueue(MockResponse(status: 503, body: Data("busy".utf8)))

        let first = Curl.run(server.url("/one?x=1"), ["-H", "X-Test: a"])
        let second = Curl.run(server.url("/two"), ["-d", "payload"])

        #expect(first.exitCode == 0)
        #expect(first.status == 200)
        #expect(first.body == "{}")
        #expect(second.status == 503)
        #expect(second.body == "busy")
        let one = try server.takeRequest(timeout: .seconds(2))
        #expect(one.method == "GET")
        #expect(one.target == "/one?x=1")
        #expect(one.path == "/one")
        #expect(one.header("x-test") == "a")
        #expect(one.connectionIndex == 0)
        #expect(one.sniName == nil)
        #expect(one.tlsVersion == nil)
        let two = try server.takeRequest(timeout: .seconds(2))
        #expect(two.method == "POST")
        #expect(two.bodyText == "payload")
        #expect(two.connectionIndex == 1)
    }

    @Test("keep-alive requests share a connection, with increasing exchange indices")
    func keepAliveRequestsShareAConnectionWithIncreasingExchangeIndex() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("a".utf8)))
        server.enqueue(MockResponse(body: Data("b".utf8)))

        let result = Curl.run(server.url("/a"), [server.url("/b").absoluteString])

        #expect(result.exitCode == 0)
        let first = try server.takeRequest(timeout: .seconds(2))
        let second = try server.takeRequest(timeout: .seconds(2))
        #expect([first.connectionIndex, second.connectionIndex] == [Int]([0, 0]))
        #expect([first.exchangeIndex, second.exchangeIndex] == [Int]([0, 1]))
        #expect(server.journal.count == 1)
        #expect(closedRecord(server)?.requestCount == 2)
    }

    @Test("a Connection: close response makes the client open a new connection")
    func connectionCloseResponseMakesTheClientOpenANewConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(closeConnection: true))
        server.enqueue(MockResponse())

        #expect(Curl.run(server.url("/a"), [server.url("/b").absoluteString]).exitCode == 0)

        #expect(try server.takeRequest().connectionIndex == 0)
        #expect(try server.takeRequest().connectionIndex == 1)
        #expect(closedRecord(server, 0)?.closedBy == .server)
    }

    @Test("the dispatcher answers instead of the queue")
    func theDispatcherAnswersInsteadOfTheQueue() throws {
        let server = try makeServer()
        server.dispatcher = MockDispatcher { request in
            MockResponse(status: request.path == "/missing" ? 404 : 200, body: Data(request.path.utf8))
        }

        #expect(Curl.run(server.url("/missing")).status == 404)
        let found = Curl.run(server.url("/here"))
        #expect(found.status == 200)
        #expect(found.body == "/here")
    }

    @Test("an empty queue answers 404 at once")
    func anEmptyQueueAnswers404AtOnce() throws {
        let server = try makeServer()
        #expect(Curl.run(server.url("/")).status == 404)
    }

    @Test("a chunked request body is decoded and its chunk sizes recorded")
    func aChunkedRequestBodyIsDecodedAndItsChunkSizesRecorded() throws {
        let server = try makeServer()
        server.enqueue(MockResponse())

        let result = Curl.run(server.url("/upload"), ["-H", "Transfer-Encoding: chunked", "--data-binary", "hello chunked"])

        #expect(result.status == 200)
        let request = try server.takeRequest()
        #expect(request.bodyText == "hello chunked")
        #expect(request.chunkSizes == [13])
    }

    @Test("Expect: 100-continue is answered before the body")
    func expect100ContinueIsAnsweredBeforeTheBody() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 201))

        // curl's verbose trace shows each response head it reads; without the interim one it would send the body
        // after its own wait, and the trace would show only the 201.
        let result = Curl.run(server.url("/put"), ["-v", "-H", "Expect: 100-continue", "--data-binary", "body", "-X", "PUT"])

        #expect(result.status == 201)
        #expect(result.stderr.contains("< HTTP/1.1 100 Continue"), "\(result.stderr)")
        #expect(try server.takeRequest().bodyText == "body")
    }

    @Test("a chunked response is decoded by the client")
    func aChunkedResponseIsDecodedByTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("abcdefghij".utf8), chunked: [1, 2, 3]))

        let result = Curl.run(server.url("/"))

        #expect(result.exitCode == 0)
        #expect(result.body == "abcdefghij")
    }

    @Test("a malformed request gets 400 and is recorded")
    func aMalformedRequestGets400AndIsRecorded() throws {
        let server = try makeServer()

        let reply = try rawExchange(server, "BROKEN\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request"), "\(reply)")
        let request = try server.takeRequest()
        #expect(request.failure != nil)
        #expect(closedRecord(server)?.closedBy == .server)
    }

    @Test("an oversized request head gets 400")
    func anOversizedRequestHeadGets400() throws {
        let server = try makeServer()

        let reply = try rawExchange(server, "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000) + "\r\n\r\n")

        #expect(reply.hasPrefix("HTTP/1.1 400"), "\(reply)")
        #expect(try server.takeRequest().failure?.contains("64 KiB") ?? false)
    }

    @Test("a head delay postpones the response")
    func headDelayPostponesTheResponse() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(headDelay: .milliseconds(300)))

        let start = Date()
        #expect(Curl.run(server.url("/")).status == 200)
        #expect(Date().timeIntervalSince(start) >= 0.3)
    }

    @Test("throttled responses arrive intact, at the throttle's pace")
    func throttledResponsesArriveIntact() throws {
        let server = try makeServer()
        let body = Data(String(repeating: "x", count: 100).utf8)
        server.enqueue(MockResponse(body: body, throttle: .init(bytes: 40, per: .milliseconds(20))))

        let started = ContinuousClock.now
        let result = Curl.run(server.url("/"))

        #expect(result.body == String(decoding: body, as: UTF8.self))
        // Head and body (over 140 bytes) leave 40 bytes at a time, with a pause after each write but the
        // last: at least three pauses. A lower bound only, so a slow machine cannot fail it.
        #expect(ContinuousClock.now - started >= .milliseconds(60))
    }

    @Test("pipelined requests are answered in order on one connection")
    func pipelinedRequestsAreAnsweredInOrderOnOneConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("1".utf8)))
        server.enqueue(MockResponse(body: Data("2".utf8), closeConnection: true))

        let reply = try rawExchange(server, "GET /a HTTP/1.1\r\n\r\nPOST /b HTTP/1.1\r\nContent-Length: 1\r\n\r\nx")

        #expect(reply.hasSuffix("\r\n\r\n2"), "\(reply)")
        #expect(reply.components(separatedBy: "HTTP/1.1 200").count - 1 == 2)
        #expect(try server.takeRequest().path == "/a")
        #expect(try server.takeRequest().exchangeIndex == 1)
    }

    @Test("informational responses are skipped by the client")
    func informationalResponsesAreSkippedByTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("final".utf8)).with { $0.informational = [MockResponse(status: 103)] })

        let result = Curl.run(server.url("/"))

        #expect(result.status == 200)
        #expect(result.body == "final")
    }

    func rawExchange(_ server: MockServer, _ request: String) throws -> String {
        String(decoding: try RawClient.exchange(port: server.port, Array(request.utf8)), as: UTF8.self)
    }
}
