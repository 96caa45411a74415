import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Responses from a server that misbehaves on purpose, which any stack must survive with a documented
    /// error, without a hang and without harm to its other fetches (ERR-5, ERR-8, ERR-9, ERR-17, ERR-18, HTTP-16).
    static var hostile: [ConformanceCase] {
        func raw(_ text: String) -> MockResponse { MockResponse(status: 200, malformation: .garbageThenClose(Data(text.utf8))) }
        let quick = ResourceSpec().with { $0.timeout = 2 }
        var cases: [ConformanceCase] = []
        // Two ends to the odd reply: a close (which FoundationNetworking stalls on) and a connection kept open
        // (which libcurl 7.88 can queue other fetches behind).
        let oddReplies: [(variant: String, reply: MockResponse, how: String)] = [
            ("", raw("HTTP/2 200\r\nContent-Length: 2\r\n\r\nok"), "then the server closes"),
            (
                ".keep-open", MockResponse(status: 200, body: Data("ok".utf8), malformation: .statusLineVersion("HTTP/2")),
                "and the connection stays open (MockResponse.Malformation.statusLineVersion)"
            ),
        ]
        for odd in oddReplies {
            for (name, tls) in [("plain", false), ("tls", true)] {
                cases.append(
                    ConformanceCase(
                        id: "hostile.http2-status-line.no-collateral\(odd.variant).\(name)",
                        title:
                            "a status line claiming HTTP/2 on an HTTP/1.1 connection stalls no other fetch to the host (\(name)\(odd.variant.isEmpty ? "" : ", kept open"))",
                        rules: ["HTTP-16", "ERR-9"],
                        explanation:
                            "Nine fetches at once on one stack: /odd is answered `HTTP/2 200` with Content-Length: 2 \(odd.how); eight fetches of /fine get a 200. However a stack judges the odd response, the eight others succeed and none times out.",
                        server: ServerScript(tlsScenario: tls ? "valid-ec256" : nil, routes: ["/odd": odd.reply, "/fine": ok("fine")]),
                        // Nine handshakes at once on a loaded 2-core machine can take a second or more: the bound that
                        // catches a stalled fetch is generous, and a passing stack never waits for it.
                        resource: ResourceSpec().with { $0.timeout = 6 },
                        action: .concurrent(paths: ["/fine", "/odd"] + Array(repeating: "/fine", count: 7)),
                        expected: Expectation(
                            success("fine"), journal: .requests(9),
                            checks: [
                                .fetches(path: "/fine", kind: .success, count: 8),
                                .noFetchFailedWith(urlErrorCode: URLError.Code.timedOut.rawValue),
                            ])))
            }
        }
        for (name, head) in [
            ("status-line-only", "HTTP/1.1 200 OK\r\n"), ("with-header", "HTTP/1.1 200 OK\r\nContent-Type: text/plain\r\n"),
            ("no-content", "HTTP/1.1 204 No Content\r\n"),
        ] {
            cases.append(
                ConformanceCase(
                    id: "hostile.truncated-head.\(name)",
                    title: "a head cut off before its blank line (\(name)) is networkConnectionLost, never an empty success",
                    rules: ["ERR-8"],
                    explanation:
                        "The server sends \(head.debugDescription) and closes: the response never became whole, url(networkConnectionLost).",
                    server: .plain(raw(head)), resource: quick,
                    expected: Expectation(url(.networkConnectionLost), journal: .requests(1))))
        }
        cases.append(
            ConformanceCase(
                id: "hostile.truncated-head.tls", title: "a head without its blank line over TLS, then a close, is networkConnectionLost",
                rules: ["ERR-8"],
                explanation: "MockResponse.Malformation.headWithoutBlankLineThenClose over TLS: url(networkConnectionLost).",
                server: .tls("valid-ec256", .malformed(.headWithoutBlankLineThenClose)), resource: quick,
                expected: Expectation(url(.networkConnectionLost), journal: .requests(1))))

        let hint = MockResponse(status: 103, headers: [("Link", "</style.css>; rel=preload; " + String(repeating: "c", count: 200))])
        let oversized: [(String, String, MockResponse)] = [
            (
                "header-line", "a header line of 120 KiB",
                MockResponse(status: 200, headers: [("X-Big", String(repeating: "a", count: 120 * 1024))], body: Data("x".utf8))
            ),
            (
                "many-fields", "300 header fields of 1000 bytes (about 300 KiB)",
                MockResponse(
                    status: 200, headers: (0..<300).map { ("X-Field-\($0)", String(repeating: "b", count: 1000)) }, body: Data("x".utf8))
            ),
            (
                "informational-flood", "1500 interim 103 responses (about 350 KiB of heads) before the 200",
                MockResponse(status: 200, body: Data("x".utf8)).with { $0.informational = Array(repeating: hint, count: 1500) }
            ),
            (
                "padded-head", "a head padded to 300 KiB (MockResponse.Malformation.oversizedHead)",
                MockResponse(status: 200, body: Data("x".utf8), malformation: .oversizedHead(300 * 1024))
            ),
        ]
        for (name, what, response) in oversized {
            cases.append(
                ConformanceCase(
                    id: "hostile.oversized-head.\(name)", title: "\(what) is badServerResponse",
                    rules: ["ERR-17"],
                    explanation:
                        "The server sends \(what). A stack bounds what it buffers of a head: a line over 100 KiB, or heads over 256 KiB in all, interim responses included, fail with url(badServerResponse).",
                    server: .plain(response), resource: quick,
                    expected: Expectation(url(.badServerResponse), journal: .requests(1))))
        }
        // Each interim head is exactly 1 KiB: a 26-byte status line, a 996-byte Link field line, the 2-byte blank line.
        let kibHint = MockResponse(
            status: 103, headers: [("Link", "</style.css>; rel=preload; " + String(repeating: "c", count: 961))])
        cases.append(
            ConformanceCase(
                id: "hostile.oversized-head.informational-between-limits",
                title: "280 interim 103 heads of 1 KiB each (280 KiB in all) before the 200 is badServerResponse",
                rules: ["ERR-17"],
                explanation:
                    "The 256 KiB bound holds across all the heads of a fetch, interim ones included: no single head here is large, but together they pass 256 KiB, so url(badServerResponse). 280 KiB stays under the 300 KiB at which libcurl 7.88 (Debian's, patched for CVE-2023-38039) refuses heads by itself, so a stack on libcurl that counts each head apart, or not at all, delivers the 200 and fails this case; hostile.oversized-head.informational-flood, at about 350 KiB, cannot tell them apart.",
                server: .plain(
                    MockResponse(status: 200, body: Data("x".utf8)).with { $0.informational = Array(repeating: kibHint, count: 280) }),
                resource: quick,
                expected: Expectation(url(.badServerResponse), journal: .requests(1))))
        // A SHOULD: a decoder that reads the reason phrase without keeping it (NIO's) may deliver the response, which
        // costs it nothing; a stack that buffers the line refuses it, as the server's fault, never as its own.
        for (name, tls) in [("", false), (".tls", true)] {
            let long = MockResponse(status: 200, reason: String(repeating: "r", count: 120 * 1024), body: Data("x".utf8))
            cases.append(
                ConformanceCase(
                    id: "hostile.oversized-head.status-line\(name)",
                    title: "a status line of 120 KiB (a long reason phrase) is badServerResponse\(tls ? " (TLS)" : "")",
                    rules: ["ERR-17"], level: .should,
                    explanation:
                        "The server answers with a status line whose reason phrase makes it 120 KiB. A stack that buffers the line fails with url(badServerResponse), as for a header line over 100 KiB: no head was parsed yet, but the request went out and the server's bytes are at fault, never cannotLoadFromNetwork, the client's own failure. A SHOULD: a decoder that reads the reason phrase without keeping it may deliver the response.",
                    server: ServerScript(tlsScenario: tls ? "valid-ec256" : nil, responses: [long]), resource: quick,
                    expected: Expectation(url(.badServerResponse), journal: .requests(1))))
        }
        // The MUST under the SHOULD above: whether the line is read is the stack's choice, whose fault a refusal is is not.
        for (name, tls) in [("", false), (".tls", true)] {
            let long = MockResponse(status: 200, reason: String(repeating: "r", count: 120 * 1024), body: Data("x".utf8))
            cases.append(
                ConformanceCase(
                    id: "hostile.oversized-head.status-line.server-at-fault\(name)",
                    title:
                        "a status line of 120 KiB is read, or refused as badServerResponse: never the client's own failure\(tls ? " (TLS)" : "")",
                    rules: ["ERR-17"],
                    explanation:
                        "The server answers with a status line whose reason phrase makes it 120 KiB. A stack may read it (a decoder that drops the reason phrase keeps nothing) and deliver the 200, or refuse it as url(badServerResponse); it never reports the server's bytes as a failure of its own, such as cannotLoadFromNetwork, which a caller would retry or blame on the client.",
                    server: ServerScript(tlsScenario: tls ? "valid-ec256" : nil, responses: [long]), resource: quick,
                    expected: Expectation(
                        url(.badServerResponse), journal: .requests(1), or: [Expectation(success("x"), journal: .requests(1))])))
        }
        cases.append(
            ConformanceCase(
                id: "hostile.oversized-head.large-final-after-interim",
                title: "100 interim heads of 1 KiB, then a 200 whose head is 160 KiB (260 KiB in all) is badServerResponse",
                rules: ["ERR-17"],
                explanation:
                    "Each head is under 256 KiB and every line under 100 KiB; the heads of the fetch together pass 256 KiB while staying under the 300 KiB at which libcurl 7.88 refuses by itself: url(badServerResponse). A stack that counts only the final head delivers the 200.",
                server: .plain(
                    MockResponse(
                        status: 200,
                        headers: [("X-A", String(repeating: "a", count: 80 * 1024)), ("X-B", String(repeating: "b", count: 80 * 1024))],
                        body: Data("x".utf8)
                    ).with { $0.informational = Array(repeating: kibHint, count: 100) }),
                resource: quick,
                expected: Expectation(url(.badServerResponse), journal: .requests(1))))
        cases.append(
            ConformanceCase(
                id: "hostile.switching-protocols-then-bytes",
                title: "an unrequested 101 followed by bytes that are not HTTP is badResponse",
                rules: ["ERR-5"],
                explanation:
                    "A GET answered `101 Switching Protocols` (Upgrade: h2c) and then frames that are not HTTP: the stack asked for no upgrade, so .badResponse with the 101, once.",
                server: .plain(
                    raw("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\nframes that are not HTTP")),
                resource: quick,
                expected: Expectation(Outcome(kind: .badResponse, status: 101), journal: .requests(1), checks: [.completions(1)])))
        for (name, tls) in [("plain", false), ("tls", true)] {
            cases.append(
                ConformanceCase(
                    id: "hostile.trickle.resource-timeout.\(name)",
                    title: "a server that trickles one byte every 20 ms is stopped by the per-attempt limit (\(name))",
                    rules: ["ERR-18"],
                    explanation:
                        "The resource timeout is 0.5 s and the request's idle timeout 5 s; the 400-byte body arrives a byte per 20 ms (8 s in all), so no silence ever lasts the idle timeout: the whole-attempt limit fails the fetch with url(timedOut).",
                    server: ServerScript(
                        tlsScenario: tls ? "valid-ec256" : nil,
                        responses: [MockResponse(status: 200, body: Data(count: 400), throttle: .init(bytes: 1, per: .milliseconds(20)))]),
                    stack: StackSetup(resourceTimeout: 0.5),
                    expected: Expectation(url(.timedOut), journal: .requests(1))))
        }
        return cases
    }
}
