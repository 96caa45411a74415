import Foundation
@testable import MockServer
import XCTest

final class ResponseEncoderTests: XCTestCase {
    private func wire(_ response: MockResponse, head: Bool = false) -> String {
        let encoded = ResponseEncoder.encode(response, forHeadRequest: head)
        return String(decoding: encoded.head + encoded.body, as: UTF8.self)
    }

    func testTheDefaultResponseIs200WithContentLengthZero() {
        XCTAssertEqual(wire(MockResponse()), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    }

    func testHeadersKeepOrderAndDuplicatesAndCloseAddsConnectionClose() {
        let response = MockResponse(status: 201, headers: [("A", "1"), ("A", "2")], body: Data("xy".utf8), closeConnection: true)
        XCTAssertEqual(wire(response), "HTTP/1.1 201 Created\r\nA: 1\r\nA: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\nxy")
        XCTAssertTrue(ResponseEncoder.encode(response).mustClose)
    }

    func testAnExplicitContentLengthIsSentAsWritten() {
        XCTAssertEqual(wire(MockResponse(headers: [("Content-Length", "10")], body: Data("ab".utf8))),
                       "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab")
    }

    func testChunkedBodiesUseTheScriptedSizesAndRepeatTheLast() {
        let response = MockResponse(body: Data("abcdefg".utf8), chunked: [1, 3])
        XCTAssertEqual(wire(response), "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n3\r\nbcd\r\n3\r\nefg\r\n0\r\n\r\n")
    }

    func testAResponseToHEADHasNoBody() {
        XCTAssertEqual(wire(MockResponse(body: Data("abc".utf8)), head: true), "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n")
    }

    func testMalformedChunkSizeAndMissingLastChunkBendTheFraming() {
        let body = Data("abc".utf8)
        XCTAssertTrue(wire(MockResponse(body: body, fault: .malformedChunkSize)).hasSuffix("\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"))
        XCTAssertTrue(wire(MockResponse(body: body, fault: .missingLastChunkThenClose)).hasSuffix("\r\n\r\n3\r\nabc\r\n"))
    }

    func testConflictingContentLengthSendsTwoValues() {
        XCTAssertEqual(wire(MockResponse(body: Data("abc".utf8), fault: .conflictingContentLength)),
                       "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc")
    }

    func testStatusLineAndHeadFaults() {
        XCTAssertTrue(wire(MockResponse(fault: .malformedStatusLine)).hasPrefix("HTTP/1.1 2000 OK\r\n"))
        XCTAssertEqual(wire(MockResponse(fault: .headWithoutBlankLineThenClose)), "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n")
        XCTAssertEqual(wire(MockResponse(body: Data("hi".utf8), fault: .http09Reply)), "hi")
        XCTAssertGreaterThanOrEqual(ResponseEncoder.encode(MockResponse(fault: .oversizedHead(100_000))).head.count, 100_000)
    }
    func testACloseDelimitedBodyHasNoLengthAndClosesTheConnection() {
        let response = MockResponse(body: Data("abc".utf8)).with { $0.closeDelimited = true }
        XCTAssertEqual(wire(response), "HTTP/1.1 200 OK\r\n\r\nabc")
        XCTAssertTrue(ResponseEncoder.encode(response).mustClose)
    }

    func testInformationalResponsesPrecedeTheFinalHead() {
        let response = MockResponse().with { $0.informational = [MockResponse(status: 103, headers: [("Link", "</a>")])] }
        XCTAssertEqual(wire(response), "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    }
}
