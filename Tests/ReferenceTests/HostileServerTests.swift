import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

/// What a server that misbehaves on purpose gets from the stack: a documented error, never a hang, and no
/// harm to the other fetches.
@Suite("A hostile server", .scaledTimeLimit(minutes: 1), .blocking)
struct HostileServerTests {

    private func urlErrorCode(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> URLError.Code? {
        guard case .url(let error)? = result.failure else { return nil }
        return error.code
    }

    private func raw(_ text: String) -> MockResponse {
        MockResponse(status: 200, malformation: .garbageThenClose(Data(text.utf8)))
    }

    @Test("an unrequested 101 followed by bytes is badResponse")
    func switchingProtocolsThenBytes() throws {
        let harness = try Harness()
        harness.server.enqueue(
            raw("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\nframes that are not HTTP"))
        guard case .badResponse(let response as HTTPURLResponse)? = harness.fetch(harness.resource()).failure else {
            Issue.record("expected badResponse"); return
        }
        #expect(response.statusCode == 101)
    }

    @Test(
        "a head cut off before its blank line is networkConnectionLost, not an empty success",
        arguments: ["HTTP/1.1 200 OK\r\n", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n", "HTTP/1.1 204 No Content\r\n"])
    func truncatedHead(head: String) throws {
        let harness = try Harness()
        harness.server.enqueue(raw(head))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .networkConnectionLost)
    }

    @Test("a header line over 100 KiB is badServerResponse")
    func oversizedHeaderLine() throws {
        let harness = try Harness()
        harness.server.enqueue(
            MockResponse(status: 200, headers: [("X-Big", String(repeating: "a", count: 120 * 1024))], body: Data("x".utf8)))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .badServerResponse)
    }

    @Test("heads over 256 KiB in all are badServerResponse, one big head or a flood of 103s")
    func oversizedHeads() throws {
        let harness = try Harness()
        let fields = (0..<300).map { ("X-Field-\($0)", String(repeating: "b", count: 1000)) }
        harness.server.enqueue(MockResponse(status: 200, headers: fields, body: Data("x".utf8)))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .badServerResponse)

        let hint = MockResponse(status: 103, headers: [("Link", "</style.css>; rel=preload; " + String(repeating: "c", count: 200))])
        harness.server.enqueue(
            MockResponse(status: 200, body: Data("x".utf8)).with { $0.informational = Array(repeating: hint, count: 1500) })
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .badServerResponse)
    }

    @Test("a server that trickles bytes is stopped by the resource timeout")
    func tricklingServer() throws {
        let harness = try Harness(configure: { $0.timeoutIntervalForResource = 0.5 })
        harness.server.enqueue(MockResponse(status: 200, body: Data(count: 400), throttle: .init(bytes: 1, per: .milliseconds(20))))
        let started = ContinuousClock.now
        #expect(urlErrorCode(harness.fetch(harness.resource(timeout: 5))) == .timedOut)
        #expect(ContinuousClock.now - started < .seconds(4))  // the body would take 8 s
    }

    @Test("a sub-second idle timeout fires after the interval, not after whole seconds")
    func subSecondTimeout() throws {
        let harness = try Harness()
        harness.server.enqueue(.fault(.stallAfterRequest))
        let started = ContinuousClock.now
        #expect(urlErrorCode(harness.fetch(harness.resource(timeout: 0.3))) == .timedOut)
        let elapsed = ContinuousClock.now - started
        #expect(elapsed >= .milliseconds(300))
        #expect(elapsed < .milliseconds(900))  // libcurl's low-speed limit took one to two seconds
    }

    @Test("a body that decodes past the default limit is dataLengthExceedsMaximum")
    func compressionBomb() throws {
        let bomb = try Data(contentsOf: Fixtures.bodies.appendingPathComponent("zeros-100MiB-plus-1.gz"))
        let harness = try Harness()
        #expect(Network.URLSessionNetworkStack.Configuration().maximumResponseSize == 100 * 1024 * 1024)
        harness.server.enqueue(MockResponse(status: 200, headers: [("Content-Encoding", "gzip")], body: bomb))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .dataLengthExceedsMaximum)
    }

    /// libcurl 7.88 marks a host as multiplexing once it reads an `HTTP/2` status line, whatever the connection
    /// speaks; with its default pipelining mode and a per-host connection limit, fetches queued for that host
    /// then wait on an HTTP/1.1 connection until they time out.
    @Test("a status line claiming HTTP/2 on an HTTP/1.1 connection stalls no other fetch to the host")
    func oddStatusLineStallsNobody() throws {
        let harness = try Harness(scenario: nil) { $0.maximumConnectionsPerHost = 2 }
        harness.server.dispatcher = MockDispatcher { request in
            request.path == "/odd"
                ? MockResponse(status: 200, body: Data("ok".utf8), malformation: .statusLineVersion("HTTP/2"))
                : MockResponse(status: 200, body: Data("fine".utf8))
        }
        let fetches = 300
        let paths = (0..<fetches).map { $0 % 30 == 0 ? "/odd" : "/fine" }
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        // All are queued at once, so each timeout also counts the wait behind the others: 30 s leaves a loaded or
        // sanitized run room (a correct stack serves all 300 in a quarter of a second), and a stalled fetch still times out.
        for path in paths { harness.stack.fetch(resource: harness.resource(path, timeout: 30)) { recorder.record($0) } }
        let results = (0..<fetches).compactMap { _ in recorder.next() }
        #expect(results.count == fetches)
        #expect(results.filter { $0.success?.value == Data("fine".utf8) }.count == fetches - fetches / 30)
        #expect(results.filter { urlErrorCode($0) == .timedOut }.isEmpty, "\(results.map { String(describing: $0) })")
    }

    @Test("a fetch that waited for a delayed retry keeps nothing alive once it completed")
    func delayedRetryReleasesItsResource() throws {
        var harness: Harness? = try Harness()
        harness!.server.enqueue(MockResponse(status: 503))
        harness!.server.enqueue(MockResponse(status: 200, body: Data("second".utf8)))
        var interceptor: RecordingInterceptor? = RecordingInterceptor(actions: [.retryAfter(0.05)])
        weak let weakInterceptor = interceptor
        let result = harness!.fetch(harness!.resource(interceptors: [interceptor!]))
        #expect(result.success?.value == Data("second".utf8))
        interceptor = nil
        harness = nil
        #expect(weakInterceptor == nil)
    }
}
