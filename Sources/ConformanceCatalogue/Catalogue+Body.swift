import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// A request body that is not text: every byte value (7 is prime to 256, so 7·i + 3 runs through all of them), one
    /// byte past 64 KiB.
    private static let binaryBody = Data((0..<65_537).map { UInt8(truncatingIfNeeded: 7 &* $0 &+ 3) })

    /// A request target with everything a URL library might decode, re-encode or reorder.
    private static let encodedTarget = "/files/a%2Fb/c%20d%c3%a9?q=x+y%2Bz&b=2&a=1&b=1&empty=&flag"

    /// Payloads, methods, 204/205, decoding and the request the server receives.
    static var body: [ConformanceCase] {
        var cases: [ConformanceCase] = [
            ConformanceCase(
                id: "body.success.text", title: "a 200 with a body succeeds with exactly that body",
                rules: ["FETCH-6"], explanation: "The simplest fetch: the payload arrives unchanged.",
                server: .plain(ok("hello, conformance")),
                expected: Expectation(success("hello, conformance"), journal: JournalExpectation(connections: 1, requests: 1))),
            ConformanceCase(
                id: "body.success.tls", title: "a 200 over TLS to a valid chain succeeds",
                rules: ["FETCH-6", "TRUST-1"], explanation: "The same fetch over HTTPS, with the fixture root trusted.",
                server: .tls("valid-ec256", ok("secure")),
                expected: Expectation(success("secure"), journal: JournalExpectation(connections: 1, requests: 1))),
            ConformanceCase(
                id: "body.no-content.204", title: "a 204 succeeds with empty data",
                rules: ["FETCH-7"], explanation: "204 No Content has no body by definition: success with empty Data, never noData.",
                server: .plain(status(204)), expected: Expectation(success("", status: 204))),
            ConformanceCase(
                id: "body.no-content.205", title: "a 205 succeeds with empty data",
                rules: ["FETCH-7"], explanation: "205 Reset Content has no body: success with empty Data.",
                server: .plain(status(205)), expected: Expectation(success("", status: 205))),
            ConformanceCase(
                id: "body.head.empty-success", title: "a HEAD answered 200 succeeds with empty data", rules: ["FETCH-10", "HTTP-1"],
                level: .should,
                explanation: "A HEAD response never has a body, so it is not unexpectedly empty.",
                server: .plain(MockResponse(status: 200, headers: ["Content-Length": "42"])),
                resource: ResourceSpec().with { $0.method = "HEAD" },
                expected: Expectation(success("", status: 200), checks: [.requestMethod(index: 0, method: "HEAD")])),
            ConformanceCase(
                id: "body.chunked", title: "a chunked body is reassembled",
                rules: ["FETCH-6", "HTTP-6"],
                explanation: "Transfer-Encoding: chunked in 3-byte chunks: the payload is the de-chunked body.",
                server: .plain(MockResponse(status: 200, body: Data("chunked payload".utf8), chunked: [3])),
                expected: Expectation(success("chunked payload"))),
            ConformanceCase(
                id: "body.large", title: "a 1 MiB body arrives whole",
                rules: ["HTTP-6"], explanation: "A large payload must not be truncated.",
                server: .plain(MockResponse(status: 200, body: Data(String(repeating: "0123456789abcdef", count: 65_536).utf8))),
                expected: Expectation(success(String(repeating: "0123456789abcdef", count: 65_536)))),
            ConformanceCase(
                id: "body.slow", title: "a body sent slowly, within the timeout, succeeds",
                rules: ["HTTP-6", "HTTP-7"],
                explanation: "The server writes 64 bytes every 10 ms: slow but steady progress is not a timeout.",
                server: .plain(
                    MockResponse(
                        status: 200, body: Data(String(repeating: "s", count: 512).utf8), throttle: .init(bytes: 64, per: .milliseconds(10))
                    )),
                expected: Expectation(success(String(repeating: "s", count: 512)))),
            ConformanceCase(
                id: "body.head-delay", title: "a response that starts late, within the timeout, succeeds",
                rules: ["HTTP-7"], explanation: "The server waits 300 ms before the status line; the request's timeout is 5 s.",
                server: .plain(MockResponse(status: 200, body: Data("late".utf8), headDelay: .milliseconds(300))),
                expected: Expectation(success("late"))),
            ConformanceCase(
                id: "body.request-body-sent", title: "a POST sends its body and method",
                rules: ["HTTP-1", "HTTP-2", "HTTP-3"], explanation: "The request's method and body reach the server unchanged.",
                server: .plain(ok()),
                resource: ResourceSpec().with {
                    $0.method = "POST"; $0.body = Data(#"{"a":1}"#.utf8); $0.headers = ["Content-Type": "application/json"]
                },
                expected: Expectation(
                    success(),
                    checks: [
                        .requestMethod(index: 0, method: "POST"), .requestBody(index: 0, body: #"{"a":1}"#),
                        .requestHeader(index: 0, name: "Content-Type", value: "application/json"),
                    ])),
            ConformanceCase(
                id: "body.request-body-binary", title: "a binary request body of 64 KiB and a byte reaches the server byte for byte",
                rules: ["HTTP-2"],
                explanation:
                    "A PUT whose body is 65,537 bytes holding every byte value, NUL, CR and LF among them, and no valid UTF-8: the server receives exactly those bytes. A stack that hands its library the body as a C string (stopping at the first NUL), as text, or in one buffer of the library's usual 64 KiB passes body.request-body-sent, whose body is short JSON, and sends less, or other bytes, here.",
                server: .plain(ok()),
                resource: ResourceSpec().with {
                    $0.method = "PUT"; $0.body = binaryBody
                },
                expected: Expectation(success(), journal: .requests(1), checks: [.requestBodyBytes(index: 0, body: binaryBody)])),
            ConformanceCase(
                id: "body.query-preserved", title: "the path and query reach the server unchanged",
                rules: ["HTTP-4"], explanation: "The request-target is the URL's path and query.",
                server: .plain(ok()), resource: ResourceSpec().with { $0.target = .server("/items/42?sort=asc&page=2") },
                expected: Expectation(success(), checks: [.requestPath(index: 0, path: "/items/42?sort=asc&page=2")])),
            ConformanceCase(
                id: "body.query-preserved.encoded", title: "percent-encoded and reserved characters reach the server as written",
                rules: ["HTTP-4"],
                explanation:
                    "The target \(encodedTarget) holds an encoded slash and space in the path, lower-case escapes, a plus and an encoded plus, a repeated key out of order, an empty value and a key without one: the server receives it character for character. A stack that rebuilds the URL from its decoded path or query items (decoding %2F into a path separator, re-encoding +, sorting keys) passes body.query-preserved, which has nothing to decode, and changes the target here.",
                server: .plain(ok()), resource: ResourceSpec().with { $0.target = .server(encodedTarget) },
                expected: Expectation(success(), checks: [.requestPath(index: 0, path: encodedTarget)])),
            ConformanceCase(
                id: "body.headers-sent", title: "request headers reach the server",
                rules: ["HTTP-3"], explanation: "Headers set on the request are sent as set.",
                server: .plain(ok()),
                resource: ResourceSpec().with { $0.headers = ["Accept": "application/vnd.test+json", "X-Trace": "abc123"] },
                expected: Expectation(
                    success(),
                    checks: [
                        .requestHeader(index: 0, name: "Accept", value: "application/vnd.test+json"),
                        .requestHeader(index: 0, name: "X-Trace", value: "abc123"),
                    ])),
            ConformanceCase(
                id: "body.redirect-followed", title: "a 302 with Location is followed, as URLSession does", rules: ["HTTP-9"],
                level: .should,
                explanation: "URLSession follows redirects by default; a stack standing in for it should too.",
                server: .plain(MockResponse(status: 302, headers: ["Location": "/moved"]), ok("moved")),
                expected: Expectation(success("moved"), journal: .requests(2), checks: [.requestPath(index: 1, path: "/moved")])),
            ConformanceCase(
                id: "body.redirect-https-to-http-refused", title: "a redirect from HTTPS to plain HTTP is refused with unsupportedURL",
                rules: ["HTTP-11"],
                explanation:
                    "An HTTPS 302 to http://127.0.0.1:1/landing: leaving TLS is refused, url(unsupportedURL). A stack that follows it meets a closed port (cannotConnectToHost) instead.",
                server: .tls("valid-ec256", MockResponse(status: 302, headers: ["Location": "http://127.0.0.1:1/landing"])),
                expected: Expectation(url(.unsupportedURL), journal: .requests(1))),
            ConformanceCase(
                id: "body.async-fetch", title: "the async fetch returns the value",
                rules: ["FETCH-13"], explanation: "fetch(resource:) async returns the same value the completion would get.",
                server: .plain(ok("async")), action: .fetchAsync, expected: Expectation(success("async"))),
            ConformanceCase(
                id: "body.async-fetch.error", title: "the async fetch throws the error, decoded API error included",
                rules: ["FETCH-13", "ERR-3"],
                explanation:
                    "fetch(resource:) async of a 422 with a JSON error body, on a resource that decodes API errors: it throws .http(422) with the decoded APIError(7, bad input), the error the completion would get. body.async-fetch checks only the value; an async form that turns failures into another error, or drops their payload, passes it and fails here.",
                server: .plain(
                    MockResponse(
                        status: 422, headers: ["Content-Type": "application/json"], body: Data(#"{"code":7,"message":"bad input"}"#.utf8))),
                resource: ResourceSpec().with { $0.errorDecoding = .jsonAPIError }, action: .fetchAsync,
                expected: Expectation(Outcome(kind: .http, status: 422, apiError: "APIError(7, bad input)"), journal: .requests(1))),
            ConformanceCase(
                id: "body.keep-alive-reuse", title: "sequential fetches reuse one connection", rules: ["HTTP-12"], level: .should,
                explanation: "Three fetches one after the other on a keep-alive server need one connection.",
                server: .plain(ok("1"), ok("2"), ok("3")), action: .sequential(3),
                expected: Expectation(success("3"), journal: JournalExpectation(connections: 1, requests: 3), checks: [.completions(3)])),
            ConformanceCase(
                id: "body.decode.success", title: "fetchAndDecode decodes the model",
                rules: ["FETCH-14"], explanation: "A JSON body decoded by ModelDecoding.json.",
                server: .plain(ok(#"{"name":"Alicerce"}"#)), action: .fetchAndDecode, expected: Expectation(success("Alicerce"))),
            ConformanceCase(
                id: "body.decode.failure", title: "a body that does not decode gives decode",
                rules: ["FETCH-15"], explanation: "A JSON body without the model's field: FetchAndDecodeError.decode.",
                server: .plain(ok("{}")), action: .fetchAndDecode, expected: Expectation(Outcome(kind: .decodeFailure))),
            ConformanceCase(
                id: "body.decode.no-content", title: "decoding a 204 fails with decode", rules: ["FETCH-17"], level: .should,
                explanation: "A 204 succeeds with empty data, which JSONDecoder cannot decode: .decode, not .fetch.",
                server: .plain(status(204)), action: .fetchAndDecode, expected: Expectation(Outcome(kind: .decodeFailure))),
            ConformanceCase(
                id: "body.decode.fetch-error", title: "a fetch error passes through fetchAndDecode as fetch",
                rules: ["FETCH-16"], explanation: "A 500: FetchAndDecodeError.fetch(.http(500)).",
                server: .plain(status(500)), action: .fetchAndDecode, expected: Expectation(Outcome(kind: .http, status: 500))),
        ]
        for method in ["GET", "HEAD", "PUT", "PATCH", "DELETE", "OPTIONS"] {
            cases.append(
                ConformanceCase(
                    id: "body.method.\(method.lowercased())", title: "a \(method) request is sent as \(method)",
                    rules: ["HTTP-1"],
                    explanation:
                        method == "HEAD"
                        ? "The request method reaches the server unchanged; a HEAD's response has no body."
                        : "The request method reaches the server unchanged.",
                    server: .plain(ok()),
                    resource: ResourceSpec().with {
                        $0.method = method; if !["GET", "HEAD"].contains(method) { $0.body = Data("m".utf8) }
                    },
                    // A HEAD is answered with the head alone: a stack that sent a GET would get the body too.
                    expected: Expectation(success(method == "HEAD" ? "" : "ok"), checks: [.requestMethod(index: 0, method: method)])))
        }
        return cases
    }
}
