@testable import MockServer
import XCTest

final class HTTPRequestParserTests: XCTestCase {
    private func parse(_ text: String) -> HTTPRequestParser.HeadResult {
        HTTPRequestParser.parseHead(Array(text.utf8))
    }

    private func head(_ text: String, file: StaticString = #filePath, line: UInt = #line) throws -> RequestHead {
        guard case .complete(let head) = parse(text) else {
            XCTFail("not complete: \(parse(text))", file: file, line: line)
            throw XCTSkip()
        }
        return head
    }

    func testParsesRequestLineHeadersInOrderAndContentLength() throws {
        let head = try head("POST /a/b?c=d HTTP/1.1\r\nHost: x\r\nX-Dup: 1\r\nx-dup:  2 \r\nContent-Length: 5\r\n\r\nhello")
        XCTAssertEqual(head.method, "POST")
        XCTAssertEqual(head.target, "/a/b?c=d")
        XCTAssertEqual(head.path, "/a/b")
        XCTAssertEqual(head.fields.map(\.value), ["x", "1", "2", "5"])
        XCTAssertEqual(head.framing, .contentLength(5))
        XCTAssertEqual(head.length, "POST /a/b?c=d HTTP/1.1\r\nHost: x\r\nX-Dup: 1\r\nx-dup:  2 \r\nContent-Length: 5\r\n\r\n".utf8.count)
    }

    func testAHeadWithoutItsBlankLineAsksForMoreBytes() {
        XCTAssertEqual(parse("GET / HTTP/1.1\r\nHost: x\r\n"), .incomplete)
        XCTAssertEqual(parse("GET / HTT"), .incomplete)
    }

    func testAHeadSplitAcrossReadsParsesOnceComplete() throws {
        var bytes = Array("GET / HTTP/1.1\r\nHost: x\r".utf8)
        XCTAssertEqual(HTTPRequestParser.parseHead(bytes), .incomplete)
        bytes += Array("\n\r\n".utf8)
        guard case .complete(let head) = HTTPRequestParser.parseHead(bytes) else { return XCTFail() }
        XCTAssertEqual(head.length, bytes.count)
    }

    func testAMalformedRequestLineIsInvalid() {
        guard case .invalid = parse("GET /\r\n\r\n") else { return XCTFail() }
        guard case .invalid = parse("GET / HTTP/2.0\r\n\r\n") else { return XCTFail() }
        guard case .invalid = parse("G(T / HTTP/1.1\r\n\r\n") else { return XCTFail() }
    }

    func testAHeadLargerThan64KiBIsInvalidEvenBeforeItEnds() {
        let big = "GET / HTTP/1.1\r\nX-Big: " + String(repeating: "a", count: 70_000)
        guard case .invalid(let reason) = parse(big) else { return XCTFail() }
        XCTAssertTrue(reason.contains("64 KiB"))
    }

    func testConflictingContentLengthsAreInvalid() {
        guard case .invalid = parse("POST / HTTP/1.1\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n") else { return XCTFail() }
    }

    func testTransferEncodingWithContentLengthIsInvalid() {
        guard case .invalid = parse("POST / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nContent-Length: 2\r\n\r\n") else { return XCTFail() }
    }

    func testObsoleteLineFoldingIsInvalid() {
        guard case .invalid = parse("GET / HTTP/1.1\r\nX: a\r\n b\r\n\r\n") else { return XCTFail() }
    }

    func testChunkedFramingExpectContinueAndConnectionCloseAreRecognised() throws {
        let head = try head("PUT / HTTP/1.1\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\nConnection: close\r\n\r\n")
        XCTAssertEqual(head.framing, .chunked)
        XCTAssertTrue(head.expectsContinue)
        XCTAssertTrue(head.wantsClose)
    }

    func testHTTP10ClosesUnlessKeepAlive() throws {
        XCTAssertTrue(try head("GET / HTTP/1.0\r\n\r\n").wantsClose)
        XCTAssertFalse(try head("GET / HTTP/1.0\r\nConnection: keep-alive\r\n\r\n").wantsClose)
        XCTAssertFalse(try head("GET / HTTP/1.1\r\n\r\n").wantsClose)
    }

    func testAbsoluteFormTargetKeepsTheRawTargetAndExtractsThePath() throws {
        let head = try head("GET http://example.test/x/y?z HTTP/1.1\r\n\r\n")
        XCTAssertEqual(head.target, "http://example.test/x/y?z")
        XCTAssertEqual(head.path, "/x/y")
    }
}
