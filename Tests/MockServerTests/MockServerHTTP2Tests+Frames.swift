import Foundation
import MockServer
import TestTraits
import Testing

/// GOAWAY mid-body, and the frames and violations nghttp, a second client, sees.
extension MockServerHTTP2Tests {
    @Test("a graceful GOAWAY mid-body that counts the stream as processed lets the body finish")
    func aGracefulGoAwayMidBodyThatCountsTheStreamAsProcessedLetsTheBodyFinish() throws {
        let server = try makeServer()
        server.enqueue(
            MockResponse(body: Data("0123456789".utf8), fault: MockFault(.goAway(lastStreamID: 1), .afterResponseBodyBytes(4))))

        let result = curl2(server, "/g")

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "0123456789")
        #expect(closedRecord(server) != nil, "the connection ends after the response")
    }

    @Test("a GOAWAY with an error code mid-body ends the connection at once")
    func aGoAwayWithAnErrorCodeMidBodyEndsTheConnectionAtOnce() throws {
        let server = try makeServer()
        server.enqueue(
            MockResponse(
                body: Data("0123456789".utf8), fault: MockFault(.goAway(lastStreamID: 1, .internalError), .afterResponseBodyBytes(4))))

        let result = curl2(server, "/g")

        #expect(result.exitCode != 0, "\(result.stderr)")
        #expect(result.body == "0123", "\(result.output)")
    }
}

extension MockServerHTTP2Tests {
    @Test("nghttp sees a stream reset with its code")
    func nghttpSeesAStreamResetWithItsCode() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.resetStream(.enhanceYourCalm), .afterRequest)))

        let result = TestProcess.run(
            "/usr/bin/nghttp", ["-v", "--timeout=5", server.url("/n").absoluteString],
            environment: ["SSL_CERT_FILE": TestCertificates.shared.root])

        #expect(result.stdout.contains("recv RST_STREAM frame"), "\(result.stdout)")
        #expect(result.stdout.contains("error_code=ENHANCE_YOUR_CALM"), "\(result.stdout)")
    }

    @Test("nghttp sees a GOAWAY with its last-stream-id and code")
    func nghttpSeesAGoAwayWithItsLastStreamIDAndCode() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.goAway(lastStreamID: 0, .internalError), .afterRequest)))

        let result = TestProcess.run(
            "/usr/bin/nghttp", ["-v", "--timeout=5", server.url("/n").absoluteString],
            environment: ["SSL_CERT_FILE": TestCertificates.shared.root])

        #expect(result.stdout.contains("recv GOAWAY frame"), "\(result.stdout)")
        #expect(result.stdout.contains("last_stream_id=0, error_code=INTERNAL_ERROR"), "\(result.stdout)")
    }

    @Test("goAwayStorm is GOAWAY after GOAWAY counting the request's stream as processed, with no response")
    func goAwayStormIsGoAwayAfterGoAway() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.http2Violation(.goAwayStorm), .afterRequest)))

        let result = TestProcess.run(
            "/usr/bin/nghttp", ["-v", "--timeout=5", server.url("/n").absoluteString],
            environment: ["SSL_CERT_FILE": TestCertificates.shared.root])

        let goAways = result.stdout.components(separatedBy: "recv GOAWAY frame <length=1008").count - 1
        #expect(goAways > 1, "\(result.stdout.suffix(2000))")
        #expect(result.stdout.contains("last_stream_id=13, error_code=NO_ERROR"), "\(result.stdout.suffix(2000))")
        #expect(!result.stdout.contains("recv HEADERS frame"), "\(result.stdout.suffix(2000))")
    }

    @Test("continuationTrickle is HEADERS without END_HEADERS, then one CONTINUATION at a time, paced")
    func continuationTrickleIsPaced() throws {
        let server = try makeServer()
        server.enqueue(MockResponse(fault: MockFault(.http2Violation(.continuationTrickle), .afterRequest)))

        let started = ContinuousClock.now
        let result = TestProcess.run(
            "/usr/bin/nghttp", ["-v", "--timeout=5", server.url("/n").absoluteString],
            environment: ["SSL_CERT_FILE": TestCertificates.shared.root])

        // nghttp prints each field of a header block as its frame arrives, and the block's HEADERS frame line only once
        // the block ends, which it never does.
        #expect(result.stdout.contains(":status: 200"), "\(result.stdout.suffix(2000))")
        #expect(!result.stdout.contains("recv HEADERS frame"), "\(result.stdout.suffix(2000))")
        let continuations = result.stdout.components(separatedBy: "x-flood: 0123456789abcdef").count - 1
        #expect(continuations >= 2, "\(result.stdout.suffix(2000))")
        #expect(ContinuousClock.now - started >= .milliseconds(25 * (continuations - 1)))
    }
}
