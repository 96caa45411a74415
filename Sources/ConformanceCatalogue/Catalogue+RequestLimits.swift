import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Header fields that would inject a header or split the request are refused before anything is sent
    /// (HTTP-5).
    static var headerInjection: [ConformanceCase] {
        let injections: [(id: String, what: String, name: String, value: String)] = [
            ("cr-in-value", "a CR in a value", "X-Note", "one\rX-Injected: 1"),
            ("lf-in-value", "an LF in a value", "X-Note", "one\nX-Injected: 1"),
            ("crlf-in-value", "CR LF in a value", "X-Note", "one\r\nX-Injected: 1"),
            ("nul-in-value", "a NUL in a value", "X-Note", "one\u{0}two"),
            ("crlf-in-name", "CR LF in a name", "X-Note\r\nX-Injected", "1"),
        ]
        return injections.map { injection in
            ConformanceCase(
                id: "body.header-injection.\(injection.id)",
                title: "\(injection.what) of a header is refused with badURL before anything is sent",
                rules: ["HTTP-5"],
                explanation:
                    "A request with the header \(injection.name.debugDescription): \(injection.value.debugDescription). Sent as is, it would add a header of the attacker's choosing; the stack fails with url(badURL) and no byte reaches the server.",
                server: .plain(ok()), resource: ResourceSpec().with { $0.headers = [injection.name: injection.value] },
                expected: Expectation(url(.badURL), journal: JournalExpectation(requests: 0, noApplicationBytes: true)))
        }
    }

    /// A body over the size the subject is given fails with `dataLengthExceedsMaximum`, whether announced,
    /// sent chunked or decoded from gzip (HTTP-15).
    static func responseSize(gzipBomb bomb: Data?) -> [ConformanceCase] {
        let limit = 1024
        var cases = [
            ConformanceCase(
                id: "body.size-limit.content-length-over",
                title: "a body announced one byte over the limit fails with dataLengthExceedsMaximum",
                rules: ["HTTP-15"],
                explanation: "Limit 1024 bytes; a 1025-byte body framed by Content-Length: url(dataLengthExceedsMaximum).",
                server: .plain(ok(String(repeating: "x", count: limit + 1))), stack: StackSetup(maximumResponseSize: limit),
                expected: Expectation(url(.dataLengthExceedsMaximum), journal: .requests(1))),
            ConformanceCase(
                id: "body.size-limit.at-limit", title: "a body of exactly the limit succeeds",
                rules: ["HTTP-15"],
                explanation: "Limit 1024 bytes; a 1024-byte body: the limit is inclusive, success with the whole body.",
                server: .plain(ok(String(repeating: "x", count: limit))), stack: StackSetup(maximumResponseSize: limit),
                expected: Expectation(success(String(repeating: "x", count: limit)), journal: .requests(1))),
            ConformanceCase(
                id: "body.size-limit.chunked-at-limit", title: "a chunked body of exactly the limit succeeds",
                rules: ["HTTP-15"],
                explanation:
                    "Limit 1024 bytes; 1024 bytes in 256-byte chunks, no length announced: the stack counts what it receives, and the limit is inclusive.",
                server: .plain(MockResponse(status: 200, body: Data(repeating: UInt8(ascii: "c"), count: limit), chunked: [256])),
                stack: StackSetup(maximumResponseSize: limit),
                expected: Expectation(success(String(repeating: "c", count: limit)), journal: .requests(1))),
            ConformanceCase(
                id: "body.size-limit.chunked-over", title: "a chunked body that grows past the limit fails with dataLengthExceedsMaximum",
                rules: ["HTTP-15"],
                explanation: "Limit 1024 bytes; 4096 bytes in 256-byte chunks, no length announced: the stack counts what it receives.",
                server: .plain(MockResponse(status: 200, body: Data(repeating: UInt8(ascii: "c"), count: 4 * limit), chunked: [256])),
                stack: StackSetup(maximumResponseSize: limit),
                expected: Expectation(url(.dataLengthExceedsMaximum), journal: .requests(1))),
            ConformanceCase(
                id: "body.size-limit.gzip-under-limit", title: "a gzip body that decodes to under the limit arrives decoded",
                rules: ["HTTP-15"],
                explanation:
                    "Limit 1024 bytes; Content-Encoding: gzip over 29 bytes that decode to 1000 bytes of \"z\": the stack delivers the decoded body, whose decoded size is within the limit.",
                server: .plain(MockResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: gzippedZs)),
                stack: StackSetup(maximumResponseSize: limit),
                expected: Expectation(success(String(repeating: "z", count: 1000)), journal: .requests(1))),
        ]
        if let bomb {
            cases += [
                ConformanceCase(
                    id: "body.size-limit.gzip-past-limit",
                    title: "a 100 KB gzip body that decodes past a 1 MiB limit fails with dataLengthExceedsMaximum",
                    rules: ["HTTP-15"],
                    explanation:
                        "Limit 1 MiB; Content-Encoding: gzip over Fixtures/bodies/zeros-100MiB-plus-1.gz (100 KB on the wire): the limit counts decoded bytes, so the stack stops long before 100 MiB.",
                    server: .plain(MockResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)),
                    stack: StackSetup(maximumResponseSize: 1024 * 1024),
                    expected: Expectation(url(.dataLengthExceedsMaximum), journal: .requests(1))),
                ConformanceCase(
                    id: "body.size-limit.gzip-one-byte-over",
                    title: "gzip decoding to 100 MiB + 1 byte under a 100 MiB limit fails with dataLengthExceedsMaximum",
                    rules: ["HTTP-15"],
                    explanation:
                        "Limit 100 MiB (the reference's default); the gzip fixture decodes to 100 MiB + 1 zero bytes: one byte over is over.",
                    server: .plain(MockResponse(status: 200, headers: ["Content-Encoding": "gzip"], body: bomb)),
                    stack: StackSetup(maximumResponseSize: 100 * 1024 * 1024),
                    expected: Expectation(url(.dataLengthExceedsMaximum), journal: .requests(1))),
            ]
        }
        return cases
    }

    /// 1000 bytes of "z", gzipped (RFC 1952, no file name, modification time 0).
    private static let gzippedZs = Data(base64Encoded: "H4sIAAAAAAACA6uqGgWjYBQMdwAAbmaWDOgDAAA=")!
}
