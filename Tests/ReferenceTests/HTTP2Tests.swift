import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

/// The stack over HTTP/2: ALPN, the version policy, libcurl's hidden replays brought under a bound, and every
/// HTTP/2 failure as a specific `URLError`.
@Suite("HTTP/2", .scaledTimeLimit(minutes: 1), .blocking)
struct HTTP2Tests {

    @Test("by default the stack speaks HTTP/2 to a server that selects it")
    func byDefaultTheStackSpeaksHTTP2ToAServerThatSelectsIt() throws {
        let harness = try Harness(httpVersions: .http1AndHTTP2)
        harness.server.enqueue(MockResponse(body: Data("two".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("two".utf8))
        #expect((result.success?.response as? HTTPURLResponse)?.statusCode == 200)
        #expect(try harness.server.takeRequest().version == "HTTP/2")
        #expect(harness.server.journal.first?.applicationProtocol == "h2")
    }

    @Test("an HTTP/1.1-only stack speaks HTTP/1.1 to a server that offers both")
    func anHTTP11OnlyStackSpeaksHTTP11ToAServerThatOffersBoth() throws {
        let harness = try Harness(httpVersions: .http1AndHTTP2) { $0.httpVersions = .http1Only }
        harness.server.enqueue(MockResponse(body: Data("one".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("one".utf8))
        #expect(try harness.server.takeRequest().version == "HTTP/1.1")
    }

    @Test("a refused stream is sent again, unseen by interceptors")
    func aRefusedStreamIsSentAgainUnseenByInterceptors() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead)))
        harness.server.enqueue(MockResponse(body: Data("second".utf8)))
        let interceptor = RecordingInterceptor()

        let result = harness.fetch(harness.resource(interceptors: [interceptor]))

        #expect(result.success?.value == Data("second".utf8))
        #expect(try harness.server.takeRequest().streamID == 1)
        #expect(try harness.server.takeRequest().streamID == 1, "the second send is on a new connection")
        #expect(interceptor.hooks() == ["make", "scheduled", "success"])
    }

    @Test("a stream refused every time is sent three times, then networkConnectionLost")
    func aStreamRefusedEveryTimeIsSentThreeTimesThenNetworkConnectionLost() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.dispatcher = MockDispatcher { _ in MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead)) }

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == .networkConnectionLost)
        #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 3, "libcurl alone would send it six times")
    }

    @Test(
        "a malformed HTTP/2 response is badServerResponse",
        arguments: [
            MockResponse(headers: [("Connection", "keep-alive")], body: Data("x".utf8)),
            MockResponse(headers: [("Content-Length", "10")], body: Data("x".utf8)),
            MockResponse(fault: MockFault(.resetStream(.protocolError), .afterRequest)),
        ])
    func aMalformedHTTP2ResponseIsBadServerResponse(response: MockResponse) throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(response)

        #expect(harness.fetch(harness.resource()).urlErrorCode == .badServerResponse)
    }

    @Test(
        "a stream reset for any other reason is networkConnectionLost",
        arguments: [
            MockFault(.resetStream(.internalError), .afterRequest),
            MockFault(.resetStream(.cancel), .afterResponseBodyBytes(3)),
            MockFault(.goAway(lastStreamID: 1, .internalError), .afterResponseBodyBytes(3)),
        ])
    func aStreamResetForAnyOtherReasonIsNetworkConnectionLost(fault: MockFault) throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(body: Data("0123456789".utf8), fault: fault))

        #expect(harness.fetch(harness.resource()).urlErrorCode == .networkConnectionLost)
    }

    @Test(
        "a protocol violation by the server ends the fetch, never hangs",
        arguments: [HTTP2Violation.invalidSetting, .hpackError, .pushPromise, .dataBeforeHeaders, .windowOverflow])
    func aProtocolViolationByTheServerEndsTheFetchNeverHangs(violation: HTTP2Violation) throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(fault: MockFault(.http2Violation(violation), .afterRequest)))

        #expect(harness.fetch(harness.resource(timeout: 5)).urlErrorCode == .networkConnectionLost)
        let record = try harness.server.waitForClose(ofConnection: 0)
        #expect(record.http2.goAway != nil, "the client refused the violation with a GOAWAY")
    }

    @Test("a zero flow-control window on an upload is timedOut")
    func aZeroFlowControlWindowOnAnUploadIsTimedOut() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(fault: MockFault(.zeroWindow, .afterRequestHead)))

        let result = harness.fetch(harness.resource(method: "POST", body: Data(count: 200_000), timeout: 1))

        #expect(result.urlErrorCode == .timedOut)
    }

    @Test("a request a GOAWAY left out is sent again on a new connection")
    func aRequestAGoAwayLeftOutIsSentAgainOnANewConnection() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(fault: MockFault(.goAway(), .afterRequestHead)))
        harness.server.enqueue(MockResponse(body: Data("second".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("second".utf8))
        #expect(harness.server.journal.count == 2)
    }

    @Test("a retry after a timed-out attempt starts on a new connection")
    func aRetryAfterATimedOutAttemptStartsOnANewConnection() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(fault: .stallAfterRequest))
        harness.server.enqueue(MockResponse(body: Data("second".utf8)))

        #expect(harness.fetch(harness.resource(timeout: 0.5)).urlErrorCode == .timedOut)
        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("second".utf8))
        #expect(harness.server.journal.count == 2, "the stalled connection was not reused")
    }

    @Test("a POST a GOAWAY may have left out is not sent again: libcurl cannot say it was not processed")
    func aPOSTAGoAwayMayHaveLeftOutIsNotSentAgain() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(fault: MockFault(.goAway(), .afterRequestHead)))
        harness.server.enqueue(MockResponse(body: Data("second".utf8)))

        let result = harness.fetch(harness.resource(method: "POST", body: Data("once".utf8)))

        #expect(result.urlErrorCode == .networkConnectionLost)
        #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 1)
    }

    @Test("a request a GOAWAY left out after a redirect is sent again: the count is per request, not per transfer")
    func aRequestAGoAwayLeftOutAfterARedirectIsSentAgain() throws {
        let harness = try Harness(httpVersions: .http2Only)
        harness.server.enqueue(MockResponse(status: 302, headers: [("Location", "/next")]))
        harness.server.enqueue(MockResponse(fault: MockFault(.goAway(), .afterRequestHead)))
        harness.server.enqueue(MockResponse(body: Data("next".utf8)))

        let result = harness.fetch(harness.resource("/start"))

        #expect(result.success?.value == Data("next".utf8), "\(result)")
        #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 3)
    }
}
