@testable import Reference
import Testing

/// The response-head parser, on bytes, as libcurl hands them over: one line per call.
@Suite("The response head parser")
struct ResponseHeadParserTests {

    private func parse(_ lines: [String]) -> ResponseHeadParser {
        var parser = ResponseHeadParser()
        for line in lines {
            let accepted = parser.consume(Array(line.utf8))
            #expect(accepted)
        }
        return parser
    }

    @Test("a status line gives the protocol and the code")
    func statusLine() {
        let parser = parse(["HTTP/1.1 404 Not Found\r\n", "\r\n"])
        #expect(parser.head == ResponseHead(status: 404, version: "HTTP/1.1"))
        #expect(parser.isComplete)
    }

    @Test(
        "a status line without a reason phrase still has its code", arguments: ["HTTP/1.1 204\r\n", "HTTP/1.1 204 \r\n", "HTTP/2 204\r\n"])
    func noReason(line: String) {
        #expect(parse([line]).head?.status == 204)
    }

    @Test(
        "a status line without three digits has code 0",
        arguments: ["HTTP/1.1 20 OK\r\n", "HTTP/1.1 2000 OK\r\n", "HTTP/1.1 abc\r\n", "HTTP/1.1\r\n"])
    func badStatus(line: String) {
        #expect(parse([line]).head?.status == 0)
    }

    @Test("fields keep their order, names as sent, values trimmed")
    func fields() {
        let parser = parse(["HTTP/1.1 200 OK\r\n", "Content-Type:  text/plain \r\n", "set-cookie: a=1\r\n", "Set-Cookie:\tb=2\r\n", "\r\n"])
        #expect(parser.head?.fields.map(\.name) == ["Content-Type", "set-cookie", "Set-Cookie"])
        #expect(parser.head?.fields.map(\.value) == ["text/plain", "a=1", "b=2"])
        #expect(parser.head?.value(of: "content-type") == "text/plain")
    }

    @Test("repeated names are joined with a comma, per spelling, for HTTPURLResponse")
    func merged() {
        let parser = parse(["HTTP/1.1 200 OK\r\n", "Vary: a\r\n", "Vary: b\r\n", "\r\n"])
        #expect(parser.head?.mergedFields == ["Vary": "a, b"])
    }

    @Test("a head is complete only once its blank line arrived")
    func completion() {
        var parser = ResponseHeadParser()
        _ = parser.consume(Array("HTTP/1.1 200 OK\r\n".utf8))
        #expect(!parser.isComplete)
        _ = parser.consume(Array("Content-Length: 0\r\n".utf8))
        #expect(!parser.isComplete)
        _ = parser.consume(Array("\r\n".utf8))
        #expect(parser.isComplete)
    }

    @Test("a new status line (after a 1xx or a redirect) starts a new head")
    func nextHead() {
        let parser = parse(["HTTP/1.1 100 Continue\r\n", "\r\n", "HTTP/1.1 201 Created\r\n", "Location: /x\r\n"])
        #expect(parser.head?.status == 201)
        #expect(parser.head?.fields.count == 1)
        #expect(!parser.isComplete)
    }

    @Test("a line without a colon is ignored, as libcurl ignores it")
    func noColon() {
        let parser = parse(["HTTP/1.1 200 OK\r\n", "garbage\r\n", "\r\n"])
        #expect(parser.head?.fields.isEmpty == true)
    }

    @Test("lines past the byte limit across all heads are refused")
    func limit() {
        var parser = ResponseHeadParser()
        let hint = Array("HTTP/1.1 103 Early Hints\r\n".utf8)
        var accepted = true
        var count = 0
        while accepted, count < 100_000 {
            accepted = parser.consume(hint)
            count += 1
        }
        #expect(!accepted)
        #expect(parser.byteCount > ResponseHeadParser.maximumBytes)
        #expect(count == ResponseHeadParser.maximumBytes / hint.count + 1)
    }

    @Test("fields before any status line are ignored")
    func fieldWithoutHead() {
        let parser = parse(["X-Early: 1\r\n", "\r\n"])
        #expect(parser.head == nil)
        #expect(!parser.isComplete)
    }
}
