import Foundation
import MockServer
import TestTraits
import Testing

/// Each malformed response, seen through curl over plain HTTP (the HTTP/2 forms are in `MockServerHTTP2Tests`; the
/// bytes themselves in `ResponseEncoderTests`).
@Suite("Each malformed response, seen through curl", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerMalformationTests: ServerTests {
    private func curlExit(malformation: MockResponse.Malformation, fault: MockFault? = nil, body: String = "0123456789") throws -> (
        Curl.Result, MockServer
    ) {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data(body.utf8), malformation: malformation, fault: fault))
        return (Curl.run(server.url("/")), server)
    }

    @Test("the journal names the malformation a connection sent, apart from its faults")
    func theJournalNamesTheMalformation() throws {
        let (_, server) = try curlExit(malformation: .http09Reply)

        let record = try server.waitForClose(ofConnection: 0)

        #expect(record.malformation == .http09Reply)
        #expect(record.fault == nil)
    }

    @Test("bytes in place of the response are rejected")
    func garbageThenCloseIsRejected() throws {
        let (result, _) = try curlExit(malformation: .garbageThenClose(Data("\u{01}\u{02}garbage\r\n\r\n".utf8)))
        #expect([1, 8].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
    }

    @Test("an HTTP/0.9 reply is rejected")
    func anHTTP09ReplyIsRejected() throws {
        let (result, _) = try curlExit(malformation: .http09Reply)
        #expect([1, 8].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
    }

    @Test("a malformed status line is rejected")
    func aMalformedStatusLineIsRejected() throws {
        let (result, _) = try curlExit(malformation: .malformedStatusLine)
        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Unsupported response code"), "\(result.stderr)")
    }

    @Test("a head without its blank line is a partial file")
    func aHeadWithoutItsBlankLineIsAPartialFile() throws {
        let (result, _) = try curlExit(malformation: .headWithoutBlankLineThenClose)
        // curl 7.88 ends the head at EOF, then misses the body that Content-Length announced.
        #expect(result.exitCode == 18, "\(result.stderr)")
    }

    @Test("an oversized head is rejected")
    func anOversizedHeadIsRejected() throws {
        let (result, _) = try curlExit(malformation: .oversizedHead(400_000))
        // curl caps a header at 100 KiB and reports it as out of memory (27).
        #expect(result.exitCode == 27, "\(result.stderr)")
    }

    @Test("conflicting Content-Length values fail the transfer")
    func conflictingContentLengthsFailTheTransfer() throws {
        let (result, _) = try curlExit(malformation: .conflictingContentLength)
        // curl 7.88 does not reject the conflict: it believes the last (larger) value and misses a byte.
        #expect(result.exitCode == 18, "\(result.stderr)")
    }

    @Test("a malformed chunk size is rejected")
    func aMalformedChunkSizeIsRejected() throws {
        let (result, _) = try curlExit(malformation: .malformedChunkSize)
        #expect(result.exitCode == 56, "\(result.stderr)")
    }

    @Test("a missing last chunk is a partial file")
    func aMissingLastChunkIsAPartialFile() throws {
        let (result, _) = try curlExit(malformation: .missingLastChunkThenClose)
        #expect(result.exitCode == 18, "\(result.stderr)")
    }

    @Test("extra bytes beyond Content-Length are not part of the body")
    func extraBytesBeyondContentLengthAreNotPartOfTheBody() throws {
        let (result, _) = try curlExit(malformation: .extraBytesBeyondContentLength(Data("EXTRA".utf8)))
        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "0123456789")
    }

    @Test("statusLineVersion sends that version in the status line and keeps the connection open")
    func statusLineVersionKeepsTheConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("0123456789".utf8), malformation: .statusLineVersion("HTTP/2")))
        server.enqueue(MockResponse(body: Data("second".utf8)))
        let requests = "GET / HTTP/1.1\r\nHost: a\r\n\r\nGET /again HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n"
        let reply = String(decoding: try RawClient.exchange(port: server.port, Array(requests.utf8)), as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/2 200 OK\r\n"), "\(reply)")
        #expect(reply.hasSuffix("0123456789HTTP/1.1 200 OK\r\nContent-Length: 6\r\n\r\nsecond"), "\(reply)")
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.requestCount == 2)
    }

    @Test("a response with no status is rejected")
    func aResponseWithNoStatusIsRejected() throws {
        let (result, server) = try curlExit(malformation: .missingStatus)
        // The head starts with `Content-Length: 10`: curl 7.88 takes it for HTTP/0.9 and refuses it.
        #expect([1, 8].contains(result.exitCode), "\(result.exitCode) \(result.stderr)")
        #expect(closedRecord(server)?.closedBy == .server)
    }

    // MARK: With a fault on the same response

    @Test("a fault that fires before the response sends none of the malformed bytes")
    func aFaultBeforeTheResponseSendsNoneOfIt() throws {
        let (result, server) = try curlExit(malformation: .garbageThenClose(Data("GARBAGE".utf8)), fault: .closeWithNoReply)
        #expect(result.exitCode == 52, "\(result.stderr)")
        #expect(closedRecord(server)?.fault == .closeWithNoReply)
    }

    @Test("a fault on a response trigger replaces the malformation's close with its own effect")
    func aResponseFaultReplacesTheMalformationsClose() throws {
        let (result, server) = try curlExit(malformation: .headWithoutBlankLineThenClose, fault: MockFault(.reset, .afterResponse))
        #expect(result.exitCode == 56, "\(result.stderr)")
        #expect(closedRecord(server)?.closeKind == .reset)
    }

    @Test("a fault on a response trigger cuts the malformed body where it says")
    func aResponseFaultCutsTheMalformedBody() throws {
        let (result, _) = try curlExit(malformation: .extraBytesBeyondContentLength(Data("EXTRA".utf8)), fault: .closeAfterBodyBytes(4))
        #expect(result.exitCode == 18, "\(result.stderr)")
        #expect(result.body == "0123")
    }

    @Test("an early answer goes out in its malformed shape, before the request body is read")
    func anEarlyAnswerGoesOutMalformed() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 413, malformation: .malformedStatusLine, fault: .answerWithoutReadingBody))

        let result = Curl.run(server.url("/"), ["--data-binary", String(repeating: "u", count: 1000)])

        #expect(result.exitCode == 1, "\(result.stderr)")
        #expect(result.stderr.contains("Unsupported response code"), "\(result.stderr)")
        #expect(try server.takeRequest().body.isEmpty)
    }
}
