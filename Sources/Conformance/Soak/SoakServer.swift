import ConformanceModel
import Foundation
import MockServer

/// The server half of the soak, run as a child process (`conformance soak --serve`) so that its journals, which keep every
/// request, do not count against the client's memory: a plain HTTP/1.1 server, and a TLS server that speaks
/// HTTP/2 to a client that offers it (HTTP/1.1 otherwise) and lets it resume sessions, with the same responses.
enum SoakServer {

    /// The fixture scenario the TLS server serves; root A trusts it.
    private static let scenario = "valid-ec256"

    /// The roots that trust the TLS server's certificate.
    static func roots(_ fixtures: FixtureCatalogue) -> [String] { (fixtures.scenario(scenario)?.trust ?? []).map(fixtures.path) }

    /// Serves until standard input closes; prints both ports on the first line of standard output.
    static func run(_ fixtures: FixtureCatalogue) throws {
        guard let served = fixtures.scenario(scenario), let chain = served.served, let key = served.key else {
            throw CommandFailure(.noInput, "the fixture catalogue has no scenario \(scenario) with a chain and a key")
        }
        let plain = try MockServer()
        // Resumption on: a stack that resumes mixes resumed connections with full handshakes, and its cache of sessions
        // counts against the heap bound.
        let tls = try MockServer(
            tls: MockServer.TLS(
                identity: .init(chainFile: fixtures.path(chain), keyFile: fixtures.path(key)), sessionResumption: true,
                httpVersions: .http1AndHTTP2))
        for server in [plain, tls] { server.dispatcher = MockDispatcher { request in response(for: request.path) } }
        // Written straight to the pipe: print's buffer would hold the ports until exit.
        FileHandle.standardOutput.write(Data("\(plain.port) \(tls.port)\n".utf8))
        while readLine() != nil {}
        _ = plain.shutdown()
        _ = tls.shutdown()
    }

    /// What each path of the soak mix answers.
    static func response(for path: String) -> MockResponse {
        switch path {
        case "/ok": return MockResponse(status: 200, body: Data(repeating: 0x61, count: 512))
        case "/big": return MockResponse(status: 200, body: Data(repeating: 0x62, count: 64 * 1024), chunked: [8192])
        case "/empty": return MockResponse(status: 200)
        case "/flaky": return Bool.random() ? MockResponse(status: 503) : MockResponse(status: 200, body: Data("ok".utf8))
        case "/close": return .fault(.closeWithNoReply)
        case "/reset": return .fault(.resetWithNoReply)
        case "/cut-head": return .malformed(.headWithoutBlankLineThenClose)
        case "/cut-body": return MockResponse(status: 200, body: Data(count: 4096), fault: .closeAfterBodyBytes(100))
        case "/garbage": return .malformed(.garbageThenClose(Data("not http\r\n\r\n".utf8)))
        case "/stall": return .fault(.stallAfterRequest)
        case "/refused":
            return Bool.random() ? .fault(MockFault(.resetStream(.refusedStream), .afterRequestHead)) : MockResponse(status: 200)
        case "/goaway": return .fault(MockFault(.goAway(), .afterRequestHead))
        case "/reset-stream":
            return MockResponse(status: 200, body: Data(count: 4096), fault: MockFault(.resetStream(.cancel), .afterResponseBodyBytes(100)))
        case let hostile where hostile.hasPrefix("/hostile-h2/"):
            guard let index = Int(hostile.dropFirst("/hostile-h2/".count)), hostilePeers.indices.contains(index) else {
                return MockResponse(status: 404)
            }
            return .fault(MockFault(.http2Violation(hostilePeers[index]), .afterRequest))
        default: return MockResponse(status: 404)
        }
    }

    /// The hostile HTTP/2 peers of ERR-22 the mix plays: the client's memory must stay within the heap bound however
    /// many it meets. Not the CONTINUATION trickle, which lasts 10 s, nor the PING and SETTINGS floods, whose 50,000
    /// acknowledgements this server then reads: seconds a flood under a sanitizer, which starved a sanitized test run.
    static let hostilePeers: [HTTP2Violation] = [.continuationFlood, .tableSizeOverflow, .resetStorm, .headersNeverEnd, .goAwayStorm]
}
