import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// The seven `URLSessionError` cases over a real socket, every status class and its boundaries, and
    /// API error decoding.
    static var errors: [ConformanceCase] {
        var cases: [ConformanceCase] = [
            ConformanceCase(
                id: "error.no-request.maker-fails", title: "a failing request maker gives noRequest and opens no connection",
                rules: ["FETCH-4"],
                explanation:
                    "The base request maker answers a failure: the stack must complete with noRequest(error) without touching the network.",
                server: .plain(), resource: ResourceSpec().with { $0.requestMaking = .failing },
                expected: Expectation(Outcome(kind: .noRequest), journal: JournalExpectation(connections: 0))),
            ConformanceCase(
                id: "error.no-request.interceptor-fails", title: "a make-request interceptor that fails gives noRequest",
                rules: ["FETCH-2", "FETCH-4"], explanation: "The interceptor chain's final result is a failure: noRequest, nothing sent.",
                server: .plain(), resource: .intercepted(.failRequest),
                expected: Expectation(Outcome(kind: .noRequest), journal: JournalExpectation(connections: 0))),
            ConformanceCase(
                id: "error.http.api-error-decoded", title: "a non-2xx response's payload is decoded into the API error",
                rules: ["ERR-3"], explanation: "A 422 with a JSON error body: .http(422, APIError, response) with the decoded error.",
                server: .plain(
                    MockResponse(
                        status: 422, headers: ["Content-Type": "application/json"], body: Data(#"{"code":7,"message":"bad input"}"#.utf8))),
                resource: ResourceSpec().with { $0.errorDecoding = .jsonAPIError },
                expected: Expectation(Outcome(kind: .http, status: 422, apiError: "APIError(7, bad input)"), journal: .requests(1))),
            ConformanceCase(
                id: "error.http.api-error-undecodable", title: "a payload the error decoder cannot read gives http with no API error",
                rules: ["ERR-3"],
                explanation: "A 500 whose body is not the API's JSON: the decoder returns nil and the error is .http(500, nil, response).",
                server: .plain(status(500, "<html>oops</html>")), resource: ResourceSpec().with { $0.errorDecoding = .jsonAPIError },
                expected: Expectation(Outcome(kind: .http, status: 500, apiError: "none"))),
            ConformanceCase(
                id: "error.http.api-error-empty-body", title: "an error response without a body gives http with no API error",
                rules: ["ERR-3"], explanation: "A 404 with no body: the decoder gets no payload and returns nil.",
                server: .plain(status(404)), resource: ResourceSpec().with { $0.errorDecoding = .jsonAPIError },
                expected: Expectation(Outcome(kind: .http, status: 404, apiError: "none"))),
            ConformanceCase(
                id: "error.http.unauthorized-with-challenge", title: "a 401 with WWW-Authenticate completes with http(401)",
                rules: ["ERR-4"],
                explanation:
                    "HTTP authentication is the interceptors' job: a 401 carrying a Basic challenge must complete as .http(401) like any other status, never wait for credentials.",
                server: .plain(MockResponse(status: 401, headers: ["WWW-Authenticate": #"Basic realm="conformance""#])),
                expected: Expectation(Outcome(kind: .http, status: 401), journal: .requests(1))),
            ConformanceCase(
                id: "error.http.unauthorized-with-digest-challenge", title: "a 401 with a Digest challenge completes with http(401)",
                rules: ["ERR-4"],
                explanation:
                    "As error.http.unauthorized-with-challenge, with a Digest challenge (realm, nonce, qop) instead of Basic: .http(401) after one request. HTTP libraries answer the schemes they consider safe by themselves (libcurl's CURLAUTH_ANYSAFE leaves out Basic only), so a stack that let its library authenticate would pass the Basic case, then send a second request with an Authorization header here.",
                server: .plain(
                    MockResponse(
                        status: 401,
                        headers: [
                            "WWW-Authenticate":
                                #"Digest realm="conformance", qop="auth", nonce="dcd98b7102dd2f0e8b11d0f600bfb0c093", algorithm=MD5"#
                        ],
                        body: Data("unauthorized".utf8))),
                expected: Expectation(
                    Outcome(kind: .http, status: 401), journal: .requests(1),
                    checks: [.requestHeader(index: 0, name: "Authorization", value: nil)])),
            ConformanceCase(
                id: "error.no-data.escape-hatch", title: "a status listed as allowing an empty body succeeds without one",
                rules: ["FETCH-9"],
                explanation: "A 201 with no body on a resource whose emptyBodyStatusCodes holds 201: success with empty data.",
                server: .plain(status(201)), resource: ResourceSpec().with { $0.emptyBodyStatusCodes = [201] },
                expected: Expectation(success("", status: 201))),
            ConformanceCase(
                id: "error.no-data.escape-hatch.on-retry",
                title: "a status listed as allowing an empty body succeeds without one on a retry",
                rules: ["FETCH-9"],
                explanation:
                    "A resource whose emptyBodyStatusCodes holds 202: a 503 is retried at once, and the retry is answered 202 with no body: success with empty data. A stack that builds the next attempt's resource field by field, leaving out emptyBodyStatusCodes (its default is empty), passes error.no-data.escape-hatch and fails the retry with noData(202) here.",
                server: .plain(status(503), status(202)),
                resource: ResourceSpec().with {
                    $0.emptyBodyStatusCodes = [202]; $0.interceptors = [.recorder("a", actions: [.retry])]
                },
                expected: Expectation(success("", status: 202), journal: .requests(2))),
            ConformanceCase(
                id: "error.url.connection-refused", title: "a refused connection is url(cannotConnectToHost)",
                rules: ["ERR-6"],
                explanation: "Nothing listens on the port: the transport error is delivered as .url with a specific code.",
                server: .plain(), resource: ResourceSpec().with { $0.target = .refusedPort },
                expected: Expectation(url(.cannotConnectToHost))),
            ConformanceCase(
                id: "error.retry.max-retries-exhausted", title: "a policy that stops retrying gives retry with every attempt's error",
                rules: ["RETRY-5", "RETRY-7"],
                explanation:
                    "maxRetries(1) against a server that always answers 503: two attempts, then .retry(.retries(1), state) whose state holds both errors.",
                server: ServerScript(repeating: status(503)), resource: .intercepted(.policy(.maxRetries(1))),
                expected: Expectation(
                    Outcome(kind: .retry, status: 503, retryError: "retries(1)", attempts: 2, totalDelay: 0, lastErrorKind: .http),
                    journal: .requests(2))),
            ConformanceCase(
                id: "error.cancelled.in-flight", title: "cancelling through the cancelable gives cancelled",
                rules: ["CANCEL-1", "CANCEL-3"],
                explanation:
                    "The server reads the request and never answers; the caller cancels: the fetch completes once with .cancelled.",
                server: .plain(.fault(.stallAfterRequest)), action: .cancel(.inFlight),
                expected: Expectation(Outcome(kind: .cancelled), checks: [.completions(1)])),
        ]
        let unrequestedUpgrade = MockResponse(
            status: 200,
            malformation: .garbageThenClose(Data("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n".utf8)))
        for tls in [false, true] {
            cases.append(
                ConformanceCase(
                    id: "error.bad-response.switching-protocols\(tls ? ".tls" : "")",
                    title:
                        "\(tls ? "over TLS, " : "")a 101 Switching Protocols nobody asked for is badResponse, without the failed hook or a retry",
                    rules: ["ERR-5", "INT-5", "FETCH-1"],
                    explanation:
                        "A GET\(tls ? " over TLS" : "") is answered `HTTP/1.1 101 Switching Protocols` (Upgrade: h2c) and the connection closes. The stack did not ask to upgrade, so the response is not one it can use: .badResponse(response) with the 101, completed at once — the interceptors' failed hook is not called, so a retry policy never runs and the server sees one attempt.",
                    server: ServerScript(tlsScenario: tls ? "valid-ec256" : nil, responses: [unrequestedUpgrade]),
                    resource: .intercepted(.recorder("a", actions: [.retry]), .policy(.maxRetries(3))),
                    expected: Expectation(
                        Outcome(kind: .badResponse, status: 101), journal: JournalExpectation(connections: 1, requests: 1),
                        checks: [.hooks(["a.make", "a.scheduled"]), .completions(1)])))
        }
        // Every status class and its boundaries: non-2xx is http with the classified code.
        let failures: [(Int, String)] = [
            (300, "the first redirection code"), (304, "not modified, no body"), (399, "the last redirection code"),
            (400, "the first client error"), (401, "unauthorized without a challenge"), (403, "forbidden"), (404, "not found"),
            (409, "conflict"), (422, "unprocessable content"), (429, "too many requests"), (499, "the last client error"),
            (500, "the first server error"), (502, "bad gateway"), (503, "service unavailable"), (504, "gateway timeout"),
            (599, "the last server error"), (600, "above the classified range: unknownError"), (999, "far above the range: unknownError"),
        ]
        for (code, what) in failures {
            cases.append(
                ConformanceCase(
                    id: "error.http.status-\(code)", title: "status \(code) (\(what)) is http(\(code))",
                    rules: code < 400 ? ["ERR-1", "ERR-2", "HTTP-10"] : ["ERR-1", "ERR-2"],
                    explanation:
                        "Any status outside 200–299 fails with .http carrying HTTP.StatusCode(\(code)); a 3xx without Location is not followed.",
                    server: .plain(status(code, code == 304 ? "" : "e\(code)")),
                    expected: Expectation(Outcome(kind: .http, status: code), journal: .requests(1))))
        }
        // 2xx with no body, other than 204/205: noData.
        for code in [200, 201, 202, 203, 299] {
            cases.append(
                ConformanceCase(
                    id: "error.no-data.status-\(code)", title: "a \(code) with an empty body is noData(\(code))",
                    rules: ["FETCH-8"],
                    explanation:
                        "A 2xx other than 204/205 whose body is empty (Content-Length: 0) is unexpectedly empty: .noData(\(code), response).",
                    server: .plain(status(code)),
                    expected: Expectation(Outcome(kind: .noData, status: code), journal: .requests(1))))
        }
        // 2xx with a body: success, whatever the code.
        for code in [200, 201, 202, 206, 299] {
            cases.append(
                ConformanceCase(
                    id: "error.success.status-\(code)", title: "a \(code) with a body succeeds",
                    rules: ["FETCH-6"], explanation: "Every 2xx with a body is success with that body.",
                    server: .plain(status(code, "body-\(code)")),
                    expected: Expectation(success("body-\(code)", status: code))))
        }
        return cases
    }
}
