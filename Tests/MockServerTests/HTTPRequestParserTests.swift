@testable import MockServer
import TestTraits
import Testing

@Suite("The request-head parser", .scaledTimeLimit(minutes: 1))
struct HTTPRequestParserTests {
    private func parse(_ text: String) -> HTTPRequestParser.HeadResult {
        HTTPRequestParser.parseHead(Array(text.utf8))
    }

    private func head(_ text: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> RequestHead {
        let result = parse(text)
        guard case .complete(let head) = result else {
            Issue.record("not complete: \(result)", sourceLocation: sourceLocation)
            throw NotComplete()
        }
        return head
    }

    private struct NotComplete: Error {}

    @Test("it parses the request line, the headers in order and Content-Length")
    func parsesRequestLineHeadersInOrderAndContentLength() throws {
        let head = try head("POST /a/b?c=d HTTP/1.1\r\nHost: x\r\nX-Dup: 1\r\nx-dup:  2 \r\nContent-Length: 5\r\n\r\nhello")
        #expect(head.method == "POST")
        #expect(head.target == "/a/b?c=d")
        #expect(head.path == "/a/b")
        #expect(head.fields.map(\.value) == ["x", "1", "2", "5"])
        #expect(head.framing == .contentLength(5))
        #expect(head.length == "POST /a/b?c=d HTTP/1.1\r\nHost: x\r\nX-Dup: 1\r\nx-dup:  2 \r\nContent-Length: 5\r\n\r\n".utf8.count)
    }

    @Test("a head without its blank line asks for more bytes", arguments: ["GET / HTTP/1.1\r\nHost: x\r\n", "GET / HTT"])
    func headWithoutItsBlankLineAsksForMoreBytes(text: String) {
        #expect(parse(text) == .incomplete)
    }

    @Test("a head split across reads parses once complete")
    func headSplitAcrossReadsParsesOnceComplete() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: x\r".utf8)
        #expect(HTTPRequestParser.parseHead(bytes) == .incomplete)
        bytes += Array("\n\r\n".utf8)
        guard case .complete(let head) = HTTPRequestParser.parseHead(bytes) else { Issue.record("not complete"); return }
        #expect(head.length == bytes.count)
    }

    @Test("a malformed request line is invalid", arguments: ["GET /\r\n\r\n", "GET / HTTP/2.0\r\n\r\n", "G(T / HTTP/1.1\r\n\r\n"])
    func malformedRequestLineIsInvalid(text: String) {
        guard case .invalid = parse(text) else { Issue.record("not invalid: \(parse(text))"); return }
    }

    @Test("a head larger than 64 KiB is invalid even before it ends")
    func headLargerThan64KiBIsInvalidEvenBeforeItEnds() {
        let big = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000)
        guard case .invalid(let reason) = parse(big) else { Issue.record("not invalid"); return }
        #expect(reason.contains("64 KiB"))
    }

    @Test("conflicting Content-Length values are invalid")
    func conflictingContentLengthsAreInvalid() {
        guard case .invalid = parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") else {
            Issue.record("not invalid"); return
        }
    }

    @Test("Transfer-Encoding together with Content-Length is invalid")
    func transferEncodingWithContentLengthIsInvalid() {
        guard case .invalid = parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n") else {
            Issue.record("not invalid"); return
        }
    }

    @Test("obsolete line folding is invalid")
    func obsoleteLineFoldingIsInvalid() {
        guard case .invalid = parse("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n") else { Issue.record("not invalid"); return }
    }

    @Test("chunked framing, Expect: 100-continue and Connection: close are recognised")
    func chunkedFramingExpectContinueAndConnectionCloseAreRecognised() throws {
        let head = try head("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        #expect(head.framing == .chunked)
        #expect(head.expectsContinue)
        #expect(head.wantsClose)
    }

    @Test(
        "HTTP/1.0 closes unless keep-alive; HTTP/1.1 keeps the connection",
        arguments: [
            ("GET / HTTP/1.0\r\n\r\n", true),
            ("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n", false),
            ("GET / HTTP/1.1\r\n\r\n", false),
        ])
    func http10ClosesUnlessKeepAlive(text: String, wantsClose: Bool) throws {
        #expect(try head(text).wantsClose == wantsClose)
    }

    @Test("an absolute-form target keeps the raw target and extracts the path")
    func absoluteFormTargetKeepsTheRawTargetAndExtractsThePath() throws {
        let head = try head("GET http://example.test/x/y?z HTTP/1.1\r\n\r\n")
        #expect(head.target == "http://example.test/x/y?z")
        #expect(head.path == "/x/y")
    }

    @Test(
        "a malformed Content-Length is invalid, never a crash or a body-less request",
        arguments: [
            "", ",", "1,", ",1", "-1", "+1", " 1 1", "0x10", "1e3",
            "99999999999999999999",  // 20 digits: beyond Int
            "9223372036854775808",  // Int.max + 1
        ])
    func malformedContentLengthIsInvalid(value: String) {
        let result = parse("POST / HTTP/1.1\r\nContent-Length: \(value)\r\n\r\n")
        guard case .invalid = result else { Issue.record("not invalid: \(result)"); return }
    }

    @Test("a large but representable Content-Length is parsed; the body limit is the server's business")
    func largeContentLengthIsParsed() throws {
        #expect(
            try head("POST / HTTP/1.1\r\nContent-Length: 999999999999999999\r\n\r\n").framing == .contentLength(999_999_999_999_999_999))
    }

    @Test("repeated equal Content-Length values, in one field or several, are one length")
    func repeatedEqualContentLengthsAreOneLength() throws {
        #expect(try head("POST / HTTP/1.1\r\nContent-Length: 3, 3\r\nContent-Length: 3\r\n\r\n").framing == .contentLength(3))
    }
}
