import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    /// The cases whose behaviour does not depend on the protocol, run again over HTTP/2 (IDs ending `.h2`).
    static var http2Variants: [ConformanceCase] {
        (errors + body + transport + redirects + retry + interceptors + cancellation + trust + resumption + pinning
            + clientCertificates)
            .compactMap(\.overHTTP2)
    }

    /// What only HTTP/2 has: ALPN, refused streams and GOAWAY, stream resets, malformed responses, protocol
    /// violations and flow control.
    static var http2: [ConformanceCase] {
        negotiation + coalescing + unprocessedRequests + streamFailures + violations + hostilePeers + [afterSessionFailure]
    }

    private static func h2(_ responses: MockResponse..., versions: MockServer.TLS.HTTPVersions = .http2Only) -> ServerScript {
        var script = ServerScript(tlsScenario: "valid-ec256", responses: responses)
        script.httpVersions = versions
        return script
    }

    /// An HTTP/2-only server answering every request with one response.
    private static func h2(repeating response: MockResponse) -> ServerScript {
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

    private static var unprocessedRequests: [ConformanceCase] {
        let refused = MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead))
        let unprocessed = MockResponse(fault: MockFault(.goAway(), .afterRequestHead))
        return [
            ConformanceCase(
                id: "http2.refused-stream.sent-again", title: "a refused stream is sent again on a new connection, unseen by interceptors",
                rules: ["HTTP-18"],
                explanation:
                    "The server resets the request's stream with REFUSED_STREAM (not processed, RFC 9113 §8.7), then answers 200. The fetch succeeds, the interceptor sees one attempt and a success, and the server saw the request twice.",
                requires: [.http2], server: h2(refused, ok("second")), resource: .intercepted(.recorder("a")),
                expected: Expectation(
                    success("second"), journal: JournalExpectation(requests: 2, http2: true),
                    checks: [.hooks(["a.make", "a.scheduled", "a.success"])])),
            ConformanceCase(
                id: "http2.refused-stream.post-sent-again",
                title: "a POST whose stream is refused is sent again, body and all: the server provably did not process it",
                rules: ["HTTP-18", "HTTP-22"],
                explanation:
                    "The server resets a POST's stream with REFUSED_STREAM, then answers 200. REFUSED_STREAM says the request was not processed, whatever its method (RFC 9113 §8.7): the POST is sent again with its body, and the fetch succeeds. A stack that never resends a POST fails it; only a request that may have been processed must not go again.",
                requires: [.http2], server: h2(refused, ok("second")),
                resource: ResourceSpec().with {
                    $0.method = "POST"
                    $0.body = Data("order=1".utf8)
                },
                expected: Expectation(
                    success("second"), journal: JournalExpectation(requests: 2, http2: true),
                    checks: [.requestBody(index: 1, body: "order=1")])),
            ConformanceCase(
                id: "http2.refused-stream.bounded",
                title: "a stream refused every time is sent three times in all, then url(networkConnectionLost)",
                rules: ["HTTP-18"],
                explanation:
                    "Every attempt's stream is refused. The request is sent again at most twice (libcurl alone sends it six times), then the fetch fails with networkConnectionLost and the interceptor sees one failure.",
                requires: [.http2], server: h2(repeating: refused),
                resource: .intercepted(.recorder("a")),
                expected: Expectation(
                    url(.networkConnectionLost), journal: JournalExpectation(requests: 3),
                    checks: [.hooks(["a.make", "a.scheduled", "a.failure"])])),
            ConformanceCase(
                id: "http2.goaway.unprocessed-sent-again",
                title: "a request above a GOAWAY's last-stream-id is sent again on a new connection",
                rules: ["HTTP-18"],
                explanation:
                    "The server answers the request with a graceful GOAWAY (NO_ERROR) whose last-stream-id is below the request's stream, so the request was provably not processed (RFC 9113 §6.8), then closes; the next connection answers 200. The fetch succeeds and the interceptor sees no failure.",
                requires: [.http2], server: h2(unprocessed, ok("second")), resource: .intercepted(.recorder("a")),
                expected: Expectation(
                    success("second"), journal: JournalExpectation(connections: 2, requests: 2),
                    checks: [.hooks(["a.make", "a.scheduled", "a.success"])])),
            ConformanceCase(
                id: "http2.goaway.processed-post-not-sent-again",
                title: "a POST a GOAWAY counts as processed is not sent again: url(networkConnectionLost)",
                rules: ["HTTP-18", "HTTP-22"],
                explanation:
                    "The server reads a POST on stream 1, then sends GOAWAY (INTERNAL_ERROR) with last-stream-id 1 and closes: the stream may have been processed, and no response came. The stack must not send the POST again, on any connection: the fetch fails with networkConnectionLost, and the server read the POST once.",
                requires: [.http2],
                server: h2(MockResponse(fault: MockFault(.goAway(lastStreamID: 1, .internalError), .afterRequest)), ok("second")),
                resource: ResourceSpec().with {
                    $0.method = "POST"
                    $0.body = Data("order=1".utf8)
                },
                expected: Expectation(url(.networkConnectionLost), journal: .requests(1))),
            ConformanceCase(
                id: "http2.goaway.unprocessed-bounded",
                title: "a request the server never processes is sent three times in all, then url(networkConnectionLost)",
                rules: ["HTTP-18"],
                explanation:
                    "Every connection answers the request with a GOAWAY that excludes it. The request is sent again at most twice, then the fetch fails with networkConnectionLost.",
                requires: [.http2], server: h2(repeating: unprocessed),
                expected: Expectation(url(.networkConnectionLost), journal: JournalExpectation(requests: 3))),
            ConformanceCase(
                id: "http2.goaway.after-response",
                title: "a graceful GOAWAY that counts the request as processed still delivers its response",
                rules: ["HTTP-17"],
                explanation:
                    "The server sends GOAWAY naming the request's own stream as the last it processes, after 5 body bytes, then finishes the body and closes. The fetch succeeds with the whole body; a second fetch then opens a new connection.",
                requires: [.http2],
                server: h2(
                    MockResponse(
                        body: Data("payload-0123456789".utf8), fault: MockFault(.goAway(lastStreamID: 1), .afterResponseBodyBytes(5))),
                    ok("second")),
                action: .sequential(2),
                expected: Expectation(success("second"), journal: JournalExpectation(connections: 2, requests: 2))),
        ]
    }

    private static var streamFailures: [ConformanceCase] {
        struct Failure {
            var id: String
            var rule: String
            var response: MockResponse
            var code: URLError.Code
            var what: String
            var method = "GET"
            var level = ConformanceLevel.must
        }
        let body = Data("payload-0123456789".utf8)
        let failures = [
            Failure(
                id: "malformed.no-status", rule: "ERR-19",
                response: .malformed(.missingStatus),
                code: .badServerResponse, what: "the response HEADERS carry no :status"),
            Failure(
                id: "malformed.connection-header", rule: "ERR-19",
                response: MockResponse(headers: [("Connection", "keep-alive")], body: body),
                code: .badServerResponse, what: "the response carries a connection-specific field (connection: keep-alive)"),
            Failure(
                id: "malformed.content-length-mismatch", rule: "ERR-19",
                response: MockResponse(headers: [("Content-Length", "100")], body: body), code: .badServerResponse,
                what: "the response's content-length says 100 and its DATA carry 18 bytes"),
            Failure(
                id: "malformed.oversized-data-frame", rule: "ERR-19",
                response: .malformed(.malformedChunkSize), code: .badServerResponse,
                what: "after a well-formed head, a DATA frame one byte longer than the largest frame size the client announced",
                // libcurl 7.88 (Debian 12) takes a session its nghttp2 ended after a whole head for a response without a
                // body and reports success: a stack on it cannot see the refusal. A SHOULD until a libcurl that can.
                level: .should),
            Failure(
                id: "reset-stream.protocol-error", rule: "ERR-19",
                response: MockResponse(fault: MockFault(.resetStream(.protocolError), .afterRequest)), code: .badServerResponse,
                what: "the server resets the stream with PROTOCOL_ERROR"),
            Failure(
                id: "reset-stream.internal-error", rule: "ERR-20",
                response: MockResponse(fault: MockFault(.resetStream(.internalError), .afterRequest)), code: .networkConnectionLost,
                what: "the server resets the stream with INTERNAL_ERROR before answering"),
            Failure(
                id: "reset-stream.mid-body", rule: "ERR-20",
                response: MockResponse(body: body, fault: MockFault(.resetStream(.cancel), .afterResponseBodyBytes(5))),
                code: .networkConnectionLost, what: "the server resets the stream with CANCEL after 5 body bytes"),
            Failure(
                id: "reset-stream.mid-request-body", rule: "ERR-20",
                response: MockResponse(fault: MockFault(.resetStream(.internalError), .afterRequestBodyBytes(4))),
                code: .networkConnectionLost, what: "the server resets the stream after reading 4 bytes of the request body", method: "POST"
            ),
            Failure(
                id: "goaway.error-mid-body", rule: "ERR-20",
                response: MockResponse(body: body, fault: MockFault(.goAway(lastStreamID: 1, .internalError), .afterResponseBodyBytes(5))),
                code: .networkConnectionLost, what: "the server sends GOAWAY INTERNAL_ERROR after 5 body bytes and closes"),
            Failure(
                id: "zero-window.upload", rule: "ERR-7", response: MockResponse(fault: MockFault(.zeroWindow, .afterRequestHead)),
                code: .timedOut, what: "the server sets every flow-control window to 0 while a 200 000-byte body is uploaded",
                method: "POST"),
        ]
        return failures.map { failure in
            ConformanceCase(
                id: "http2.\(failure.id)", title: "\(failure.what): url(\(URLErrorName.describe(failure.code.rawValue)))",
                rules: [failure.rule], level: failure.level,
                explanation:
                    "Over HTTP/2, \(failure.what). The fetch fails with \(URLErrorName.describe(failure.code.rawValue)), as its HTTP/1.1 equivalent does, never as the unknown code -1 or a hang.",
                requires: [.http2], server: h2(failure.response),
                resource: ResourceSpec().with {
                    $0.timeout = 1
                    $0.method = failure.method
                    if failure.method == "POST" { $0.body = Data(count: failure.id.hasPrefix("zero-window") ? 200_000 : 64) }
                },
                expected: Expectation(url(failure.code)))
        }
    }

    private static var violations: [ConformanceCase] {
        let violations: [(HTTP2Violation, String)] = [
            (.invalidSetting, "a SETTINGS frame with SETTINGS_ENABLE_PUSH = 2"),
            (.hpackError, "response HEADERS that refer to HPACK index 0"),
            (.pushPromise, "a PUSH_PROMISE to a client that disabled push"),
            (.dataBeforeHeaders, "DATA on the request's stream before any HEADERS"),
            (.windowOverflow, "a WINDOW_UPDATE that takes the client's window past 2^31-1"),
        ]
        return violations.map { violation, what in
            ConformanceCase(
                id: "http2.violation.\(kebab(violation.description))", title: "\(what): url(networkConnectionLost), never a hang",
                rules: ["ERR-21"],
                explanation:
                    "The server answers the request with \(what), a connection error the client must refuse (RFC 9113), then keeps the connection open. The fetch fails at once with networkConnectionLost.",
                requires: [.http2], server: h2(MockResponse(fault: MockFault(.http2Violation(violation), .afterRequest))),
                resource: ResourceSpec().with { $0.timeout = 5 },
                expected: Expectation(url(.networkConnectionLost)))
        }
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

    private static var hostilePeers: [ConformanceCase] {
        let refusals: [URLError.Code] = [.networkConnectionLost, .badServerResponse]
        let floods: [(id: String, what: String, response: MockResponse, codes: [URLError.Code])] = [
            (
                "one-huge-field", "a response head with one 300 000-byte field",
                MockResponse(headers: [("X-Huge", String(repeating: "a", count: 300_000))], body: Data("x".utf8)), refusals
            ),
            (
                "head-past-limits", "a response head of 5 000 fields, 300 KB in all",
                MockResponse(headers: (0..<5000).map { ("X-Field-\($0)", String(repeating: "a", count: 48)) }, body: Data("x".utf8)),
                refusals
            ),
            (
                "continuation-flood", "response HEADERS followed by 20 000 CONTINUATION frames that never end the block",
                MockResponse(fault: MockFault(.http2Violation(.continuationFlood), .afterRequest)), refusals
            ),
            (
                "ping-flood", "50 000 PING frames and then silence",
                MockResponse(fault: MockFault(.http2Violation(.pingFlood), .afterRequest)), [.timedOut, .networkConnectionLost]
            ),
            (
                "settings-flood", "50 000 SETTINGS frames and then silence",
                MockResponse(fault: MockFault(.http2Violation(.settingsFlood), .afterRequest)), [.timedOut, .networkConnectionLost]
            ),
            (
                "table-size-overflow", "an HPACK table size update to 1 000 000 bytes, past the 4 096 the client allowed",
                MockResponse(fault: MockFault(.http2Violation(.tableSizeOverflow), .afterRequest)), refusals
            ),
            (
                "reset-storm", "1 000 RST_STREAM frames for streams the client never opened",
                MockResponse(fault: MockFault(.http2Violation(.resetStorm), .afterRequest)), [.networkConnectionLost]
            ),
            (
                "headers-never-end", "response HEADERS that never end, and then silence",
                MockResponse(fault: MockFault(.http2Violation(.headersNeverEnd), .afterRequest)), [.timedOut]
            ),
            (
                "goaway-storm", "1 000 GOAWAY frames of 1 KB each and then silence",
                MockResponse(fault: MockFault(.http2Violation(.goAwayStorm), .afterRequest)), [.timedOut, .networkConnectionLost]
            ),
        ]
        return floods.map { flood in
            var outcome = url(flood.codes[0])
            outcome.alsoAcceptedURLErrorCodes = flood.codes.dropFirst().map(\.rawValue)
            let codes = flood.codes.map { URLErrorName.describe($0.rawValue) }.joined(separator: " or ")
            return ConformanceCase(
                id: "hostile.h2.\(flood.id)", title: "\(flood.what): url(\(codes)), never a crash or a hang", rules: ["ERR-22"],
                explanation:
                    "The server answers with \(flood.what). The stack stays within its limits and fails the fetch with \(codes) within the request's one-second timeout.",
                requires: [.http2], server: h2(flood.response), resource: ResourceSpec().with { $0.timeout = 1 },
                expected: Expectation(outcome))
        } + [continuationTrickle]
    }

    /// The slow form of the CONTINUATION flood: nothing is large and nothing is late, so only the whole attempt's limit
    /// (ERR-18), or a bound on the frames of one header block, stops it.
    private static var continuationTrickle: ConformanceCase {
        var outcome = url(.timedOut)
        outcome.alsoAcceptedURLErrorCodes = [URLError.Code.networkConnectionLost.rawValue]
        return ConformanceCase(
            id: "hostile.h2.continuation-trickle",
            title:
                "a header block trickled one CONTINUATION frame every 25 ms: url(timedOut or networkConnectionLost) within the per-attempt limit",
            rules: ["ERR-22", "ERR-18"],
            explanation:
                "The server answers with HEADERS that do not end the block, then one CONTINUATION frame of one small field every 25 ms, 400 of them, never ending it: no silence reaches the request's 5-second idle timeout and the block stays far under any header limit. The stack is given a resource timeout of 0.5 s, which fails the fetch with url(timedOut); a stack whose HTTP/2 layer bounds the CONTINUATION frames of one block (nghttp2 has since 2024) refuses the connection first, networkConnectionLost. A stack with neither bound waits for the whole trickle, 10 s.",
            requires: [.http2], server: h2(MockResponse(fault: MockFault(.http2Violation(.continuationTrickle), .afterRequest))),
            stack: StackSetup(resourceTimeout: 0.5), resource: ResourceSpec().with { $0.timeout = 5 },
            expected: Expectation(outcome, journal: .requests(1)))
    }

    /// `invalidSetting` as `invalid-setting`.
    private static func kebab(_ name: String) -> String {
        name.reduce(into: "") { $0 += $1.isUppercase ? "-" + $1.lowercased() : String($1) }
    }
}

extension ConformanceCase {
    /// The same case over HTTP/2, or `nil` when its behaviour depends on the protocol: a fault that fires before
    /// ALPN (nothing of HTTP/2 happens), or a response whose HTTP/1.1 bytes are the point (a malformation, a body
    /// ended by the close).
    var overHTTP2: ConformanceCase? {
        let responses = server.allResponses
        guard
            !responses.contains(where: { response in
                response.closeDelimited || response.malformation != nil
                    || response.fault.map { $0.trigger.precedesApplicationProtocol } ?? false
            })
        else { return nil }
        // A case with nothing scripted decides its outcome before any request (a failing request maker, a refused
        // port): its twin would never open a connection, let alone speak HTTP/2 (HTTP-17).
        guard !responses.isEmpty, expected.journal.connections != 0 else { return nil }
        // HTTP/2 forbids post-handshake authentication (RFC 9113 §9.2.3): the MockServer refuses the combination.
        guard server.clientCertificates != .postHandshake else { return nil }
        var script = server
        script.tlsScenario = script.tlsScenario ?? "valid-ec256"
        script.httpVersions = .http2Only
        return ConformanceCase(
            id: id + ".h2", title: title + " (HTTP/2)", rules: rules, level: level,
            explanation: explanation + " Over HTTP/2: the server selects h2 in ALPN and every request is a stream.",
            requires: requires.union([.http2]), server: script, stack: stack, resource: resource, action: action, expected: expected)
    }
}
