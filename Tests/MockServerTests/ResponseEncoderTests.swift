import Foundation
@testable import MockServer
import TestTraits
import Testing

@Suite("The response encoder", .scaledTimeLimit(minutes: 1))
struct ResponseEncoderTests {
    private func wire(_ response: MockResponse, head: Bool = false) -> String {
        let encoded = ResponseEncoder.encode(response, forHeadRequest: head)
        return String(decoding: encoded.head + encoded.body, as: UTF8.self)
    }

    @Test("the default response is 200 with Content-Length: 0")
    func theDefaultResponseIs200WithContentLengthZero() {
        #expect(wire(MockResponse()) == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    }

    @Test("headers keep their order and duplicates, and closing adds Connection: close")
    func headersKeepOrderAndDuplicatesAndCloseAddsConnectionClose() {
        let response = MockResponse(status: 201, headers: [("A", "1"), ("A", "2")], body: Data("xy".utf8), closeConnection: true)
        #expect(wire(response) == "HTTP/1.1 201 Created\r\nA: 1\r\nA: 2\r\nContent-Length: 2\r\nConnection: close\r\n\r\nxy")
        #expect(ResponseEncoder.encode(response).mustClose)
    }

    @Test("an explicit Content-Length is sent as written")
    func anExplicitContentLengthIsSentAsWritten() {
        #expect(
            wire(MockResponse(headers: [("Content-Length", "10")], body: Data("ab".utf8)))
                == "HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nab")
    }

    @Test("chunked bodies use the scripted sizes and repeat the last")
    func chunkedBodiesUseTheScriptedSizesAndRepeatTheLast() {
        let response = MockResponse(body: Data("abcdefg".utf8), chunked: [1, 3])
        #expect(wire(response) == "HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n1\r\na\r\n3\r\nbcd\r\n3\r\nefg\r\n0\r\n\r\n")
    }

    @Test("a response to HEAD has no body")
    func aResponseToHEADHasNoBody() {
        #expect(wire(MockResponse(body: Data("abc".utf8)), head: true) == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\n\r\n")
    }

    @Test("a malformed chunk size replaces the first size line")
    func malformedChunkSizeReplacesTheFirstSizeLine() {
        #expect(wire(MockResponse(body: Data("abc".utf8), malformation: .malformedChunkSize)).hasSuffix("\r\n\r\nzz\r\nabc\r\n0\r\n\r\n"))
    }

    @Test("a missing last chunk leaves out the zero-size chunk")
    func missingLastChunkLeavesOutTheZeroSizeChunk() {
        #expect(wire(MockResponse(body: Data("abc".utf8), malformation: .missingLastChunkThenClose)).hasSuffix("\r\n\r\n3\r\nabc\r\n"))
    }

    @Test("conflicting Content-Length sends two values")
    func conflictingContentLengthSendsTwoValues() {
        #expect(
            wire(MockResponse(body: Data("abc".utf8), malformation: .conflictingContentLength))
                == "HTTP/1.1 200 OK\r\nContent-Length: 3\r\nContent-Length: 4\r\n\r\nabc")
    }

    @Test("a malformed status line has a four-digit code")
    func malformedStatusLineHasAFourDigitCode() {
        #expect(wire(MockResponse(malformation: .malformedStatusLine)).hasPrefix("HTTP/1.1 2000 OK\r\n"))
    }

    @Test("a head without its blank line ends after the last header")
    func headWithoutBlankLineEndsAfterTheLastHeader() {
        #expect(wire(MockResponse(malformation: .headWithoutBlankLineThenClose)) == "HTTP/1.1 200 OK\r\nContent-Length: 0\r\n")
    }

    @Test("an HTTP/0.9 reply is the body alone")
    func http09ReplyIsTheBodyAlone() {
        #expect(wire(MockResponse(body: Data("hi".utf8), malformation: .http09Reply)) == "hi")
    }

    @Test("an oversized head is at least the size asked for")
    func oversizedHeadIsAtLeastTheSizeAskedFor() {
        #expect(ResponseEncoder.encode(MockResponse(malformation: .oversizedHead(100_000))).head.count >= 100_000)
    }

    @Test("a close-delimited body has no length and closes the connection")
    func aCloseDelimitedBodyHasNoLengthAndClosesTheConnection() {
        let response = MockResponse(body: Data("abc".utf8)).with { $0.closeDelimited = true }
        #expect(wire(response) == "HTTP/1.1 200 OK\r\n\r\nabc")
        #expect(ResponseEncoder.encode(response).mustClose)
    }

    @Test("informational responses precede the final head")
    func informationalResponsesPrecedeTheFinalHead() {
        let response = MockResponse().with { $0.informational = [MockResponse(status: 103, headers: [("Link", "</a>")])] }
        #expect(wire(response) == "HTTP/1.1 103 Early Hints\r\nLink: </a>\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n")
    }

    @Test("bytes in place of the response are sent alone and whole, even to HEAD, then the connection closes")
    func garbageIsSentAloneAndWhole() {
        let response = MockResponse(status: 404, body: Data("body".utf8), malformation: .garbageThenClose(Data("NOT HTTP".utf8)))
        #expect(wire(response, head: true) == "NOT HTTP")
        #expect(ResponseEncoder.encode(response).mustClose)
    }

    @Test("a response with no status starts with its first header field, then the connection closes")
    func missingStatusHasNoStatusLine() {
        let response = MockResponse(body: Data("ab".utf8), malformation: .missingStatus)
        #expect(wire(response) == "Content-Length: 2\r\n\r\nab")
        #expect(ResponseEncoder.encode(response).mustClose)
    }

    @Test("a status line's version is replaced, the framing kept, and the connection stays open")
    func statusLineVersionKeepsFramingAndConnection() {
        let response = MockResponse(body: Data("ab".utf8), malformation: .statusLineVersion("HTTP/1.0"))
        #expect(wire(response) == "HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nab")
        #expect(!ResponseEncoder.encode(response).mustClose)
    }

    @Test("a malformation that keeps the connection open still closes it when the response asks to")
    func closeConnectionStillCloses() {
        let response = MockResponse(closeConnection: true, malformation: .statusLineVersion("HTTP/1.0"))
        #expect(ResponseEncoder.encode(response).mustClose)
    }

    @Test("extra bytes follow a body framed by its true length, and the connection stays open")
    func extraBytesFollowTheFramedBody() {
        let response = MockResponse(body: Data("ab".utf8), malformation: .extraBytesBeyondContentLength(Data("XY".utf8)))
        #expect(wire(response) == "HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nabXY")
        #expect(!ResponseEncoder.encode(response).mustClose)
    }

    @Test(
        "each malformation that breaks the framing closes the connection after the response",
        arguments: [
            MockResponse.Malformation.http09Reply, .malformedStatusLine, .headWithoutBlankLineThenClose, .oversizedHead(10),
            .conflictingContentLength, .malformedChunkSize, .missingLastChunkThenClose,
        ])
    func framingMalformationsClose(malformation: MockResponse.Malformation) {
        #expect(ResponseEncoder.encode(MockResponse(malformation: malformation)).mustClose)
    }

    @Test("a fault does not change the response's bytes")
    func aFaultDoesNotChangeTheBytes() {
        let plain = MockResponse(body: Data("ab".utf8))
        #expect(ResponseEncoder.encode(plain.with { $0.fault = .closeAfterBodyBytes(1) }) == ResponseEncoder.encode(plain))
    }
}
