import Foundation
import MockServer
import TestTraits
import Testing

/// Faults cut into HTTP/2 exchanges: malformations, early answers, request-body limits, throttling.
extension MockServerHTTP2Tests {
    @Test(
        "a malformation's HTTP/2 form breaks the same part of the response its nearest way",
        arguments: [
            // A body before any head; a head that never ends. (A DATA frame past the client's largest frame size is
            // nghttp's test below: libcurl 7.88, and so curl, take a session that ends after a whole head as a
            // response without a body.)
            (MockResponse.Malformation.http09Reply, Int32(52)), (.headWithoutBlankLineThenClose, 18),
            // A `:status` of four digits; two content-lengths that disagree; DATA past the content-length.
            (.malformedStatusLine, 92), (.conflictingContentLength, 92), (.extraBytesBeyondContentLength(Data("EXTRA".utf8)), 92),
            // A body of no announced length whose stream never ends.
            (.missingLastChunkThenClose, 18),
            // A padded head, and a status line's version, which HTTP/2 does not carry: the response is whole.
            (.oversizedHead(2000), 0), (.statusLineVersion("HTTP/1.0"), 0),
            // HEADERS without `:status`: a stream error; bytes that are no frame at all.
            (.missingStatus, 92), (.garbageThenClose(Data("NOT HTTP/2 AT ALL".utf8)), 52),
        ])
    func aMalformationsHTTP2FormBreaksTheSamePartOfTheResponse(malformation: MockResponse.Malformation, curlExit: Int32) throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data("payload".utf8), malformation: malformation))

        let result = curl2(server, "/bent")

        #expect(result.exitCode == curlExit, "\(malformation): \(result.stderr.split(separator: "\n").last ?? "")")
        #expect(try server.takeRequest().version == "HTTP/2")
    }

    @Test("a fault cuts a malformed HTTP/2 response where it says, and its effect replaces the malformation's close")
    func aFaultCutsAMalformedHTTP2Response() throws {
        let server = try makeServer()
        server.enqueue(
            MockResponse(
                body: Data("payload".utf8), malformation: .missingLastChunkThenClose,
                fault: MockFault(.resetStream(.cancel), .afterResponseBodyBytes(3))))

        let result = curl2(server, "/bent")

        #expect(result.exitCode == 92, "\(result.stderr)")
        #expect(result.body == "pay", "\(result.output)")
        #expect(closedRecord(server)?.closedBy == .client, "the stream was reset; the connection was not closed")
    }
}

extension MockServerHTTP2Tests {
    @Test("an answer before the request body arrives reaches the client, then the stream is reset")
    func anAnswerBeforeTheRequestBodyArrivesReachesTheClient() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(status: 200, body: Data("early".utf8), fault: .answerWithoutReadingBody))
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("early-\(UUID().uuidString)")
        try Data(repeating: 0x78, count: 200_000).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }

        let result = curl2(server, "/early", ["--data-binary", "@" + file.path])

        #expect(result.body == "early", "\(result.stderr.split(separator: "\n").suffix(3))")
        #expect(result.status == 200)
    }

    @Test("a request body over the limit gets a 413 over HTTP/2")
    func aRequestBodyOverTheLimitGetsA413OverHTTP2() throws {
        let files = TestCertificates.shared
        let server = try MockServer(
            tls: MockServer.TLS(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), httpVersions: .http2Only),
            maximumRequestBodySize: 1000)
        server.enqueue(MockResponse())

        let result = curl2(server, "/big", ["--data-binary", String(repeating: "x", count: 5000)])

        #expect(result.status == 413, "\(result.stderr.split(separator: "\n").suffix(3))")
    }

    @Test("a GOAWAY that counts the stream as processed, sent before its response could be, ends the connection")
    func aGoAwayThatCountsTheStreamAsProcessedSentBeforeItsResponseEndsTheConnection() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.goAway(lastStreamID: 1), .afterRequestHead)))

        let result = curlTLS(server, "/g", ["--http2"], maxTime: 3)

        #expect(result.exitCode != 0 && result.exitCode != 28, "the client learns at once: \(result.stderr)")
    }

    @Test("a throttled body arrives over HTTP/2 in steps, not all at the end")
    func aThrottledBodyArrivesOverHTTP2InSteps() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(body: Data(repeating: 0x61, count: 60), throttle: .init(bytes: 10, per: .milliseconds(300))))

        // An idle timeout shorter than the whole body's time, longer than one step: only paced bytes keep it alive.
        let result = curlTLS(server, "/slow", ["--http2", "--speed-time", "1", "--speed-limit", "1"], maxTime: 5)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body.count == 60)
    }
}
