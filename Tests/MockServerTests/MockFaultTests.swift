import Foundation
@testable import MockServer
import TestTraits
import Testing

@Suite("A fault is an effect and a trigger", .scaledTimeLimit(minutes: 1), .blocking)
struct MockFaultTests {
    @Test(
        "each shortcut is its effect and trigger, and is named after itself",
        arguments: [
            (MockFault.closeAtAccept, MockFault(.close, .atAccept), "closeAtAccept"),
            (.resetAtAccept, MockFault(.reset, .atAccept), "resetAtAccept"),
            (.stallAtAccept, MockFault(.stall, .atAccept), "stallAtAccept"),
            (.closeAfterClientHello, MockFault(.close, .afterClientHello), "closeAfterClientHello"),
            (.resetAfterClientHello, MockFault(.reset, .afterClientHello), "resetAfterClientHello"),
            (.stallAfterClientHello, MockFault(.stall, .afterClientHello), "stallAfterClientHello"),
            (.plaintextReplyToClientHello, MockFault(.plaintextReply, .afterClientHello), "plaintextReplyToClientHello"),
            (.fatalAlertAfterClientHello, MockFault(.fatalAlert, .afterClientHello), "fatalAlertAfterClientHello"),
            (.closeBeforeReadingRequest, MockFault(.close, .beforeRequest), "closeBeforeReadingRequest"),
            (.closeAfterRequestBodyBytes(3), MockFault(.close, .afterRequestBodyBytes(3)), "closeAfterRequestBodyBytes(3)"),
            (.resetAfterRequestBodyBytes(3), MockFault(.reset, .afterRequestBodyBytes(3)), "resetAfterRequestBodyBytes(3)"),
            (.answerWithoutReadingBody, MockFault(.respond, .afterRequestHead), "answerWithoutReadingBody"),
            (.stallAfterRequest, MockFault(.stall, .afterRequest), "stallAfterRequest"),
            (.closeWithNoReply, MockFault(.close, .afterRequest), "closeWithNoReply"),
            (.resetWithNoReply, MockFault(.reset, .afterRequest), "resetWithNoReply"),
            (.closeAfterBodyBytes(5), MockFault(.close, .afterResponseBodyBytes(5)), "closeAfterBodyBytes(5)"),
            (.resetAfterBodyBytes(5), MockFault(.reset, .afterResponseBodyBytes(5)), "resetAfterBodyBytes(5)"),
            (.stallAfterBodyBytes(5), MockFault(.stall, .afterResponseBodyBytes(5)), "stallAfterBodyBytes(5)"),
            (.closeWithoutCloseNotify, MockFault(.closeWithoutCloseNotify, .afterResponse), "closeWithoutCloseNotify"),
        ])
    func shortcutIsItsPair(shortcut: MockFault, pair: MockFault, name: String) {
        #expect(shortcut == pair)
        #expect(shortcut.hashValue == pair.hashValue)
        #expect(shortcut.description == name)
    }

    @Test(
        "a pair without a shortcut is named effect then trigger",
        arguments: [
            (MockFault(.reset, .afterRequestHead), "resetAfterRequestHead"),
            (MockFault(.stall, .beforeRequest), "stallBeforeRequest"),
            (MockFault(.respond, .afterRequestBodyBytes(4)), "respondAfterRequestBodyBytes(4)"),
            (MockFault(.reset, .afterResponse), "resetAfterResponse"),
        ])
    func pairIsNamedEffectThenTrigger(fault: MockFault, name: String) {
        #expect(fault.description == name)
    }

    @Test("after the response head is after zero response body bytes")
    func afterResponseHeadIsZeroBodyBytes() {
        #expect(MockFault.Trigger.afterResponseHead == .afterResponseBodyBytes(0))
    }

    @Test("a negative byte count means zero")
    func negativeCountMeansZero() {
        #expect(MockFault.closeAfterRequestBodyBytes(-1) == .closeAfterRequestBodyBytes(0))
        #expect(MockFault.closeAfterBodyBytes(-1) == .closeAfterBodyBytes(0))
    }

    // MARK: Pairs that had no case before, on a real server

    private func run(_ fault: MockFault, _ curlArguments: [String] = [], maxTime: Double = 5) throws -> (Curl.Result, MockServer) {
        let server = try MockServer()
        server.enqueue(MockResponse(body: Data("0123456789".utf8), fault: fault))
        return (Curl.run(server.url("/"), curlArguments, maxTime: maxTime), server)
    }

    @Test("a reset after the request head leaves the body unread")
    func resetAfterRequestHead() throws {
        let (result, server) = try run(MockFault(.reset, .afterRequestHead), ["--data-binary", "abcdef"])
        defer { server.shutdown() }
        #expect(result.exitCode == 56, "\(result.stderr)")
        let request = try server.takeRequest()
        #expect(request.body.isEmpty)
        #expect(request.failure == "body not read (resetAfterRequestHead)")
        #expect(try server.waitForClose(ofConnection: 0).closeKind == .reset)
    }

    @Test("respond after some request body bytes answers early, then closes")
    func respondAfterRequestBodyBytes() throws {
        let (result, server) = try run(MockFault(.respond, .afterRequestBodyBytes(4)), ["--data-binary", "abcd"])
        defer { server.shutdown() }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "0123456789")
        #expect(try server.takeRequest().bodyText == "abcd")
        #expect(try server.waitForClose(ofConnection: 0).closedBy == .server)
    }

    @Test("a request body shorter than the fault's count is cut at its end, as over HTTP/2 (it waited for bytes that never came)")
    func shortBodyCutAtItsEnd() throws {
        let (result, server) = try run(MockFault(.close, .afterRequestBodyBytes(10)), ["--data-binary", "abc"])
        defer { server.shutdown() }
        #expect(result.exitCode == 52, "\(result.stderr)")
        let request = try server.takeRequest()
        #expect(request.bodyText == "abc")
        #expect(request.failure == "server cut the request body after 3 bytes")
    }

    @Test("a response body shorter than the fault's count is sent whole, then the fault fires, as over HTTP/2")
    func shortResponseThenFault() throws {
        let (result, server) = try run(MockFault(.reset, .afterResponseBodyBytes(100)))
        defer { server.shutdown() }
        #expect(result.body == "0123456789")
        #expect(try server.waitForClose(ofConnection: 0).closeKind == .reset)
    }

    @Test("respond once the request was read has nothing to anticipate: the response goes out as scripted")
    func respondAfterRequestIsTheScriptedResponse() throws {
        let (result, server) = try run(MockFault(.respond, .afterRequest))
        defer { server.shutdown() }
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "0123456789")
        #expect(try server.waitForClose(ofConnection: 0).closedBy == .client)
    }

    @Test("a stall before the request times the client out")
    func stallBeforeRequest() throws {
        let (result, server) = try run(MockFault(.stall, .beforeRequest), maxTime: 1)
        defer { server.shutdown() }
        #expect(result.exitCode == 28, "\(result.stderr)")
        #expect(server.journal.first?.requestCount == 0)
    }

    @Test("a close after the response head is a partial file with no body")
    func closeAfterResponseHead() throws {
        let (result, server) = try run(MockFault(.close, .afterResponseHead))
        defer { server.shutdown() }
        #expect(result.exitCode == 18, "\(result.stderr)")
        #expect(result.body == "")
    }

    @Test("a negative request-body count cuts the upload at zero bytes, never a crash")
    func negativeRequestBodyCount() throws {
        let (result, server) = try run(.closeAfterRequestBodyBytes(-1), ["--data-binary", "abcd"])
        defer { server.shutdown() }
        #expect(result.exitCode != 0)
        #expect(try server.takeRequest().body.isEmpty)
    }
}
