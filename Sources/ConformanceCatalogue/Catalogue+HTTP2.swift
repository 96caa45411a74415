import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    /// What only HTTP/2 has: ALPN, refused streams and GOAWAY, stream resets, malformed responses, protocol
    /// violations and flow control.
    static var http2: [ConformanceCase] {
        negotiation + coalescing + unprocessedRequests + streamFailures + violations + hostilePeers + [afterSessionFailure]
    }

    static func h2(_ responses: MockResponse..., versions: MockServer.TLS.HTTPVersions = .http2Only) -> ServerScript {
        var script = ServerScript(tlsScenario: "valid-ec256", responses: responses)
        script.httpVersions = versions
        return script
    }

    /// An HTTP/2-only server answering every request with one response.
    static func h2(repeating response: MockResponse) -> ServerScript {
        var script = ServerScript(tlsScenario: "valid-ec256", repeating: response)
        script.httpVersions = .http2Only
        return script
    }

    private static var negotiation: [ConformanceCase] {
        [
            ConformanceCase(
                id: "http2.alpn.prefers-h2", title: "a server offering h2 and http/1.1 is spoken to in HTTP/2", rules: ["HTTP-17"],
                level: .should,
                explanation:
                    "The server offers both in ALPN, preferring h2 as nginx with `http2 on` does. Two sequential fetches succeed, both over HTTP/2, on one connection.",
                requires: [.http2], server: h2(ok("1"), ok("2"), versions: .http1AndHTTP2), action: .sequential(2),
                expected: Expectation(success("2"), journal: JournalExpectation(connections: 1, requests: 2, http2: true))),
            ConformanceCase(
                id: "http2.alpn.http1-server", title: "a server that selects no h2 is spoken to in HTTP/1.1", rules: ["HTTP-17"],
                explanation:
                    "The server answers ALPN with http/1.1 only. The fetch succeeds over HTTP/1.1: offering h2 never costs a server that lacks it anything.",
                server: h2(ok(), versions: .http1Only),
                expected: Expectation(success(), journal: JournalExpectation(requests: 1, http2: false))),
        ]
    }

    /// A certificate naming two hosts invites a client to carry both over one HTTP/2 connection (coalescing).
    private static var coalescing: [ConformanceCase] {
        var script = ServerScript(tlsScenario: "multi-host", host: "a.example.test", repeating: ok())
        script.httpVersions = .http2Only
        let hosts = ["a.example.test", "b.example.test"]
        return [
            ConformanceCase(
                id: "http2.coalescing.second-host-checked",
                title: "a second host under the same certificate gets its own check: its pins refuse it",
                rules: ["HTTP-17", "TRUST-6"],
                explanation:
                    "The server's certificate names a.example.test and b.example.test and the server speaks HTTP/2, where a client may carry both names over one connection. The handler pins a.example.test to the leaf and b.example.test to a key of no certificate. a.example.test is fetched, then b.example.test: b's own pins refuse it before any request for b reaches the server.",
                requires: [.http2, .resolveOverrides, .challengeBeforeRequest], server: script,
                stack: StackSetup(
                    handler: .evaluator("a.example.test pinned to the leaf, b.example.test to an unknown key") {
                        [try policy("a.example.test", [try $0.pin("multi-host", "leaf")]), try policy("b.example.test", [unknownPin])]
                    }),
                action: .hosts(hosts),
                expected: Expectation(
                    Outcome(
                        kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:noPinMatched"),
                    journal: JournalExpectation(requests: 1), checks: [.fetches(path: "a.example.test", kind: .success, count: 1)])),
            ConformanceCase(
                id: "http2.coalescing.both-hosts-checked",
                title: "two hosts under one certificate, both pinned to it: each is checked, both succeed",
                rules: ["HTTP-17", "TRUST-6"],
                explanation:
                    "As above, with both hosts pinned to the leaf: the two fetches succeed, and the handler was asked about each host, whether the stack opened a second connection or re-checked the first for b.example.test.",
                requires: [.http2, .resolveOverrides], server: script,
                stack: StackSetup(
                    handler: .evaluator("a.example.test and b.example.test pinned to the leaf") { fixtures in
                        let leaf = try fixtures.pin("multi-host", "leaf")
                        return try hosts.map { try policy($0, [leaf]) }
                    }),
                action: .hosts(hosts),
                expected: Expectation(
                    success(), journal: JournalExpectation(requests: 2),
                    checks: [.fetches(path: "a.example.test", kind: .success, count: 1), .challengedHosts(hosts)])),
        ]
    }

    /// The fetch after one whose HTTP/2 session failed on the client's side, with the server keeping the TCP
    /// connection open: it must not be sent on the dead session.
    private static var afterSessionFailure: ConformanceCase {
        let big = MockResponse(headers: (0..<2500).map { ("X-Field-\($0)", String(repeating: "a", count: 48)) }, body: Data("x".utf8))
        return ConformanceCase(
            id: "hostile.h2.next-fetch-after-session-failure",
            title: "after a response head that failed the client's HTTP/2 session, the next fetch goes on a new connection",
            rules: ["ERR-22", "HTTP-21"],
            explanation:
                "The server answers a first fetch with a 300 KB head, which the client refuses, ending its HTTP/2 session, while the server keeps the TCP connection open. A second fetch on the same stack must not wait on the dead session for its timeout: it goes on a new connection and succeeds. If it went out on the old connection before the session died there (the rest of the head was still arriving), it may be sent again on a new one, as an idempotent request lost with its connection may (HTTP-22 forbids that only for other methods): the server answers both.",
            requires: [.http2], server: h2(big, ok("second"), ok("second")), resource: ResourceSpec().with { $0.timeout = 3 },
            action: .sequential(2),
            // Two connections either way: the second fetch goes on a new one at once, or after the dying session.
            expected: Expectation(success("second"), journal: JournalExpectation(connections: 2)))
    }
}
