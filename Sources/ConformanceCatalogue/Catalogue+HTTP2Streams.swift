import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    static var unprocessedRequests: [ConformanceCase] {
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

    static var streamFailures: [ConformanceCase] {
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
                id: "malformed.status-not-three-digits", rule: "ERR-19",
                response: MockResponse(body: body, malformation: .malformedStatusLine),
                code: .badServerResponse, what: "the response's :status is 2000, not three digits"),
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
        } + [malformedResponseSparesItsConnection(body: body), refusedAfterMalformed(body: body)]
    }

    /// A malformed response is an error of its stream (RFC 9113 §8.1.1), not of the connection its neighbours share.
    private static func malformedResponseSparesItsConnection(body: Data) -> ConformanceCase {
        ConformanceCase(
            id: "http2.malformed.stream-only",
            title: "a malformed HTTP/2 response ends its stream only: the next fetch goes on the same connection",
            rules: ["ERR-19", "HTTP-12"], level: .should,
            explanation:
                "Over HTTP/2, a first response's content-length says 100 and its DATA carry 18 bytes: that fetch fails with badServerResponse (ERR-19). A malformed response is an error of its stream (RFC 9113 §8.1.1), so the connection, which other fetches may share, goes on: the second fetch is answered on it, and the server sees one connection.",
            requires: [.http2], server: h2(MockResponse(headers: [("Content-Length", "100")], body: body), ok("second")),
            resource: ResourceSpec().with { $0.timeout = 2 }, action: .sequential(2),
            expected: Expectation(success("second"), journal: JournalExpectation(connections: 1, requests: 2, http2: true)))
    }

    /// What a malformed response did to its stream stays with that stream: a stream refused later on the connection is
    /// refused, and goes again (HTTP-18).
    private static func refusedAfterMalformed(body: Data) -> ConformanceCase {
        ConformanceCase(
            id: "http2.refused-stream.after-malformed",
            title: "a stream refused after a malformed response on the same connection is still sent again",
            rules: ["HTTP-18", "ERR-19"],
            explanation:
                "Over HTTP/2, a first fetch's response has a content-length of 100 and 18 bytes of DATA (badServerResponse, ERR-19); the second fetch, on the same connection, has its stream reset with REFUSED_STREAM, then a new connection answers 200. The malformed response was the first stream's alone: the refused one is sent again, as HTTP-18 says, and the fetch succeeds. A stack that carries the first stream's error over to the next stream that ends fails the second fetch as malformed.",
            requires: [.http2],
            server: h2(
                MockResponse(headers: [("Content-Length", "100")], body: body),
                MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead)), ok("third")),
            resource: ResourceSpec().with { $0.timeout = 2 }, action: .sequential(2),
            expected: Expectation(success("third"), journal: JournalExpectation(requests: 3, http2: true)))
    }
}
