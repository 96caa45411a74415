import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    /// Every MockServer transport fault and malformed response, mapped to the URLError code a user expects.
    static var transport: [ConformanceCase] {
        struct Fault {
            var id: String
            var rule: String
            var fault: MockFault?
            var malformation: MockResponse.Malformation?
            var code: URLError.Code?
            var tls = false
            var what: String
            var body = "payload-0123456789"
            var method = "GET"
            var level = ConformanceLevel.must
            var alsoAccepted: [URLError.Code] = []
            /// The scripted misbehaviour as a user spells it.
            var name: String {
                malformation.map { "MockResponse.Malformation.\($0)" } ?? fault.map { "MockFault.\($0)" } ?? "MockResponse()"
            }
        }
        let faults: [Fault] = [
            Fault(
                id: "close-at-accept", rule: "ERR-6", fault: .closeAtAccept, code: .networkConnectionLost,
                what: "the server accepts, then closes before reading"),
            // The reset can reach the client while its connect is still completing: refused is honest too.
            Fault(
                id: "reset-at-accept", rule: "ERR-6", fault: .resetAtAccept, code: .networkConnectionLost,
                what: "the server accepts, then resets", alsoAccepted: [.cannotConnectToHost]),
            Fault(
                id: "stall-at-accept", rule: "ERR-7", fault: .stallAtAccept, code: .timedOut,
                what: "the server accepts and never reads or writes"),
            Fault(
                id: "tls.close-at-accept", rule: "ERR-12", fault: .closeAtAccept, code: .secureConnectionFailed, tls: true,
                what: "the server closes before the TLS handshake"),
            Fault(
                id: "tls.reset-at-accept", rule: "ERR-12", fault: .resetAtAccept, code: .secureConnectionFailed, tls: true,
                what: "the server resets before the TLS handshake", alsoAccepted: [.cannotConnectToHost]),
            Fault(
                id: "tls.close-after-client-hello", rule: "ERR-12", fault: .closeAfterClientHello, code: .secureConnectionFailed, tls: true,
                what: "the server closes after reading the ClientHello"),
            Fault(
                id: "tls.reset-after-client-hello", rule: "ERR-12", fault: .resetAfterClientHello, code: .secureConnectionFailed, tls: true,
                what: "the server resets after reading the ClientHello"),
            Fault(
                id: "tls.stall-after-client-hello", rule: "ERR-7", fault: .stallAfterClientHello, code: .timedOut, tls: true,
                what: "the server never answers the ClientHello"),
            Fault(
                id: "tls.plaintext-reply", rule: "ERR-12", fault: .plaintextReplyToClientHello, code: .secureConnectionFailed, tls: true,
                what: "the server answers the ClientHello with plain-text HTTP"),
            Fault(
                id: "close-before-request", rule: "ERR-6", fault: .closeBeforeReadingRequest, code: .networkConnectionLost,
                what: "the server closes before reading the request"),
            Fault(
                id: "stall-after-request", rule: "ERR-7", fault: .stallAfterRequest, code: .timedOut,
                what: "the server reads the request and never answers"),
            Fault(
                id: "close-after-request", rule: "ERR-8", fault: .closeWithNoReply, code: .networkConnectionLost,
                what: "the server reads the request, then closes without a byte"),
            Fault(
                id: "reset-after-request", rule: "ERR-8", fault: .resetWithNoReply, code: .networkConnectionLost,
                what: "the server reads the request, then resets"),
            Fault(
                id: "garbage-reply", rule: "ERR-9", malformation: .garbageThenClose(Data("NOT HTTP AT ALL\r\n\r\n".utf8)),
                code: .badServerResponse, what: "the server answers bytes that are not HTTP"),
            Fault(
                id: "http09-reply", rule: "ERR-9", malformation: .http09Reply, code: .badServerResponse,
                what: "the server answers an HTTP/0.9 simple response"),
            Fault(
                id: "malformed-status-line", rule: "ERR-9", malformation: .malformedStatusLine, code: .badServerResponse,
                what: "the status code is not three digits"),
            Fault(
                id: "head-without-blank-line", rule: "ERR-8", malformation: .headWithoutBlankLineThenClose, code: .networkConnectionLost,
                what: "the head never ends, then the server closes"),
            // libcurl 7.88 frames by the last (longer) Content-Length and then sees the connection end short of it;
            // a client that refuses the response as malformed is as right. What matters is that the shorter
            // reading is never delivered as success.
            Fault(
                id: "conflicting-content-length", rule: "ERR-10", malformation: .conflictingContentLength, code: .networkConnectionLost,
                what: "two Content-Length headers disagree (the larger is never fully sent)", alsoAccepted: [.badServerResponse]),
            // The same lie over TLS, where the stack frames what it decrypted: a second, independent path to ERR-10.
            Fault(
                id: "tls.conflicting-content-length", rule: "ERR-10", malformation: .conflictingContentLength, code: .networkConnectionLost,
                tls: true, what: "two Content-Length headers disagree over TLS", alsoAccepted: [.badServerResponse]),
            Fault(
                id: "close-mid-body", rule: "ERR-8", fault: .closeAfterBodyBytes(5), code: .networkConnectionLost,
                what: "the server closes after 5 body bytes"),
            Fault(
                id: "reset-mid-body", rule: "ERR-8", fault: .resetAfterBodyBytes(5), code: .networkConnectionLost,
                what: "the server resets after 5 body bytes"),
            Fault(
                id: "stall-mid-body", rule: "ERR-7", fault: .stallAfterBodyBytes(5), code: .timedOut,
                what: "the server stops after 5 body bytes"),
            Fault(
                id: "malformed-chunk-size", rule: "ERR-11", malformation: .malformedChunkSize, code: .badServerResponse,
                what: "a chunk-size line is not hexadecimal", level: .should),
            Fault(
                id: "missing-last-chunk", rule: "ERR-8", malformation: .missingLastChunkThenClose, code: .networkConnectionLost,
                what: "a chunked body ends without its zero-size chunk"),
            Fault(
                id: "close-mid-request-body", rule: "ERR-8", fault: .closeAfterRequestBodyBytes(4), code: .networkConnectionLost,
                what: "the server closes after reading 4 bytes of the request body", method: "POST"),
            Fault(
                id: "reset-mid-request-body", rule: "ERR-8", fault: .resetAfterRequestBodyBytes(4), code: .networkConnectionLost,
                what: "the server resets after reading 4 bytes of the request body", method: "POST"),
            Fault(
                id: "extra-bytes-after-body", rule: "ERR-15", malformation: .extraBytesBeyondContentLength(Data("EXTRA".utf8)), code: nil,
                what: "bytes follow a body framed by Content-Length", level: .should),
            Fault(
                id: "tls.close-without-close-notify", rule: "ERR-16", fault: .closeWithoutCloseNotify, code: nil, tls: true,
                what: "the server closes without a TLS close_notify after a complete response", level: .should),
        ]
        var cases: [ConformanceCase] = faults.map { fault in
            let chunked = fault.id.contains("chunk")
            let response = MockResponse(
                status: 200, body: Data(fault.body.utf8), chunked: chunked ? [4] : nil, malformation: fault.malformation, fault: fault.fault
            )
            var expected: Outcome = fault.code.map { url($0) } ?? success(fault.body)
            if !fault.alsoAccepted.isEmpty { expected.alsoAcceptedURLErrorCodes = fault.alsoAccepted.map(\.rawValue) }
            let codes = fault.code.map { [$0] + fault.alsoAccepted } ?? []
            let outcomeText =
                codes.isEmpty
                ? "success with the framed body"
                : "url(\(codes.map { URLErrorName.describe($0.rawValue) }.joined(separator: " or ")))"
            return ConformanceCase(
                id: "transport.\(fault.id)", title: "\(fault.what): \(outcomeText)",
                rules: [fault.rule], level: fault.level,
                explanation:
                    "\(fault.name) — \(fault.what). The failure is delivered as \(outcomeText), never as the unknown code -1.",
                server: ServerScript(tlsScenario: fault.tls ? "valid-ec256" : nil, responses: [response]),
                resource: ResourceSpec().with {
                    $0.timeout = 1
                    $0.method = fault.method
                    if fault.method == "POST" { $0.body = Data(String(repeating: "b", count: 64).utf8) }
                },
                expected: Expectation(expected))
        }
        cases.append(
            ConformanceCase(
                id: "transport.unsupported-scheme", title: "a scheme HTTP stacks do not speak is url(unsupportedURL)",
                rules: ["ERR-14"], explanation: "An ftp:// request: the stack fails with unsupportedURL before connecting.",
                server: .plain(), resource: ResourceSpec().with { $0.target = .unsupportedScheme },
                expected: Expectation(url(.unsupportedURL), journal: JournalExpectation(connections: 0))))
        cases.append(
            ConformanceCase(
                id: "transport.unsupported-scheme.gopher", title: "a gopher URL to a listening server is url(unsupportedURL)",
                rules: ["ERR-14"],
                explanation:
                    "gopher://, to the case's own server: the stack fails with unsupportedURL, and the server never sees a connection. libcurl speaks gopher (and dict, telnet, …), so a stack that refuses the schemes it knows are not HTTP, such as ftp, instead of every scheme but http and https, passes transport.unsupported-scheme and connects here.",
                server: .plain(ok()), resource: ResourceSpec().with { $0.target = .otherScheme("gopher") },
                expected: Expectation(url(.unsupportedURL), journal: JournalExpectation(connections: 0))))
        cases.append(
            ConformanceCase(
                id: "transport.timeout-is-retryable", title: "a timed-out attempt goes through the interceptors and can be retried",
                rules: ["RETRY-1"],
                explanation: "url errors are retryable: a stall, then a 200, with maxRetries(1), succeeds on the second attempt.",
                server: .plain(.fault(.stallAfterRequest), ok("second")),
                resource: ResourceSpec().with {
                    $0.timeout = 1; $0.interceptors = [.policy(.maxRetries(1))]
                },
                expected: Expectation(success("second"), journal: .requests(2))))
        cases.append(
            ConformanceCase(
                id: "transport.timeout.steady-slow-body",
                title: "a body that arrives steadily for longer than the timeout in all succeeds: the timeout is about no progress",
                rules: ["ERR-7"],
                explanation:
                    "The request's timeout is 1 s; the server writes its response 16 bytes every 200 ms, so the 192-byte body takes about 2.4 s in all, but no pause comes near 1 s. The timeout measures silence, not the whole transfer (ERR-18's resource timeout does that): the fetch succeeds with the whole body. A stack whose idle timer only heads or the request reset fails it with url(timedOut).",
                server: .plain(MockResponse(status: 200, body: Data(steadyBody.utf8), throttle: .init(bytes: 16, per: .milliseconds(200)))),
                resource: ResourceSpec().with { $0.timeout = 1 },
                expected: Expectation(success(steadyBody), journal: .requests(1))))
        cases.append(
            ConformanceCase(
                id: "transport.reset-is-retryable", title: "a reset attempt is retried on a new connection",
                rules: ["RETRY-1"], explanation: "url errors are retryable: a reset after the request, then a 200, with maxRetries(1).",
                server: .plain(.fault(.resetWithNoReply), ok("second")), resource: .intercepted(.policy(.maxRetries(1))),
                expected: Expectation(success("second"), journal: JournalExpectation(connections: 2, requests: 2))))
        cases += idleClose
        cases.append(
            ConformanceCase(
                id: "transport.stall-mid-request-body",
                title: "a server that stops reading an upload mid-body is url(timedOut) after the request's timeout",
                rules: ["ERR-7"],
                explanation:
                    "A POST of 2 000 000 bytes; the server reads 4 bytes of the body and then neither reads nor writes. The upload stops moving once the socket buffers are full: nothing moves for the request's timeout (1 s), so the fetch fails with url(timedOut). A stack that counts every upload progress report as progress waits forever.",
                server: .plain(.fault(MockFault(.stall, .afterRequestBodyBytes(4)))),
                resource: ResourceSpec().with {
                    $0.timeout = 1
                    $0.method = "POST"
                    $0.body = Data(count: 2_000_000)
                },
                expected: Expectation(url(.timedOut), journal: .requests(1))))
        cases.append(
            ConformanceCase(
                id: "transport.malformed-chunk-size.after-reset",
                title: "a malformed chunk size after an earlier fetch of the stack ended in a reset is still badServerResponse",
                rules: ["ERR-11"],
                explanation:
                    "Two fetches on one stack: the first is reset by the server after the request (url, its own code), the second gets a chunk-size line that is not hexadecimal. The second's code is decided by its own failure: url(badServerResponse). A stack that reads a socket error left over from an earlier transfer (libcurl's CURLINFO_OS_ERRNO survives curl_easy_reset on a pooled handle) reports networkConnectionLost.",
                server: .plain(.fault(.resetWithNoReply), .malformed(.malformedChunkSize)),
                resource: ResourceSpec().with { $0.timeout = 1 },
                action: .sequential(2),
                expected: Expectation(url(.badServerResponse), journal: .requests(2))))
        cases.append(
            ConformanceCase(
                id: "transport.keep-alive-lost.post-not-sent-again",
                title: "a POST whose kept-alive connection closes after reading it is not sent again: url(networkConnectionLost)",
                rules: ["HTTP-22"],
                explanation:
                    "The server answers a first POST on a keep-alive connection, then reads a second POST on the same connection and closes it without a reply. The server may have acted on it: the stack fails the fetch with networkConnectionLost and never sends the POST again, on that connection or another (RFC 9110 §9.2.2). A stack that resends any request lost on a reused connection sends it twice.",
                server: .plain(ok("first"), .fault(.closeWithNoReply), ok("third")),
                resource: ResourceSpec().with {
                    $0.method = "POST"
                    $0.body = Data("order=1".utf8)
                },
                action: .sequential(2),
                expected: Expectation(url(.networkConnectionLost), journal: .requests(2))))
        return cases
    }

    /// A server that closes its idle keep-alive connections (as every server with an idle timeout does), and the fetch
    /// that comes after: HTTP-21.
    private static var idleClose: [ConformanceCase] {
        let versions: [(name: String, label: String, tls: String?, maximum: MockServer.TLS.Version?)] = [
            ("tls13", "TLS 1.3", "valid-ec256", nil), ("tls12", "TLS 1.2", "valid-ec256", .tls12), ("plain", "plain HTTP", nil, nil),
        ]
        return versions.flatMap { version in
            ["GET", "POST"].map { method in
                ConformanceCase(
                    id: "transport.idle-close.\(version.name).\(method.lowercased())",
                    title: "a \(method) after the server closed its idle connection goes on a new connection (\(version.label))",
                    rules: ["HTTP-21"],
                    explanation:
                        "The server answers a \(method), then closes the connection as an idle server does: close_notify and FIN, with no Connection: close before. Once it has closed it, the same \(method) again: the stack sends it on a new connection, never into the closed one, and it succeeds with no replay spent. A stack that trusts a pooled connection because a byte is waiting on it (the close_notify) sends the request into it: the server counts what arrives after its close.",
                    server: ServerScript(
                        tlsScenario: version.tls,
                        responses: [MockResponse(body: Data("first".utf8), fault: .closeIdleAfterResponse), ok("second")],
                        tlsMaximumVersion: version.maximum),
                    resource: ResourceSpec().with {
                        $0.method = method
                        if method == "POST" { $0.body = Data("order=1".utf8) }
                    },
                    action: .fetchAfterServerClose,
                    expected: Expectation(
                        success("second"), journal: JournalExpectation(connections: 2, requests: 2, nothingAfterServerClose: true)))
            }
        }
    }

    /// The body of `transport.timeout.steady-slow-body`: 192 bytes, twelve throttled writes of 16.
    private static let steadyBody = String(repeating: "0123456789abcdef", count: 12)
}
