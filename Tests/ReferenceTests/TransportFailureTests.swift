import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

private func urlErrorCode(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> URLError.Code? {
    guard case .url(let error)? = result.failure else { return nil }
    return error.code
}

@Suite("Transport failures map to specific URLError codes", .scaledTimeLimit(minutes: 1), .blocking)
struct TransportFailureTests {

    @Test("a refused connection is cannotConnectToHost")
    func refused() throws {
        let harness = try Harness()
        var request = URLRequest(url: URL(string: "https://127.0.0.1:1/")!)
        request.timeoutInterval = 5
        let made = request
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(made)) })
        #expect(urlErrorCode(harness.fetch(resource)) == .cannotConnectToHost)
    }

    @Test("a close without reply is networkConnectionLost", arguments: [MockFault.closeWithNoReply, .resetWithNoReply])
    func noReply(fault: MockFault) throws {
        let harness = try Harness()
        harness.server.enqueue(.fault(fault))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .networkConnectionLost)
    }

    @Test("a body cut short is networkConnectionLost")
    func truncatedBody() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data(count: 100), fault: .closeAfterBodyBytes(5)))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .networkConnectionLost)
    }

    @Test(
        "a reply that is not HTTP is badServerResponse",
        arguments: [MockResponse.Malformation.http09Reply, .garbageThenClose(Data("garbage\r\n\r\n".utf8))])
    func notHTTP(malformation: MockResponse.Malformation) throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8), malformation: malformation))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .badServerResponse)
    }

    @Test("a server that stops answering is timedOut")
    func stall() throws {
        let harness = try Harness()
        harness.server.enqueue(.fault(.stallAfterRequest))
        #expect(urlErrorCode(harness.fetch(harness.resource(timeout: 1))) == .timedOut)
    }

    @Test("a TLS handshake cut at the ClientHello is secureConnectionFailed")
    func closeAfterClientHello() throws {
        let harness = try Harness()
        harness.server.enqueue(.fault(.closeAfterClientHello))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .secureConnectionFailed)
    }

    @Test("an unsupported URL scheme is unsupportedURL")
    func unsupportedScheme() throws {
        let harness = try Harness()
        let resource = Network.URLSessionResource(
            baseRequestMaking: .init { $0(.success(URLRequest(url: URL(string: "ftp://127.0.0.1/")!))) })
        #expect(urlErrorCode(harness.fetch(resource)) == .unsupportedURL)
    }

    @Test("a chain to an untrusted root is serverCertificateUntrusted, with the verifier's reason, and no request byte")
    func untrustedRoot() throws {
        let harness = try Harness(configure: { $0.trustRoots = .only(pem: "") })
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.transportFailure?.chainValidationFailure?.kind == .unableToGetIssuer)
        #expect(harness.server.journal.allSatisfy { $0.applicationBytesReceived == 0 })
    }

    @Test("an expired leaf is serverCertificateHasBadDate")
    func expiredLeaf() throws {
        let harness = try Harness(scenario: "expired-leaf")
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .serverCertificateHasBadDate)
        #expect(error.transportFailure?.chainValidationFailure?.kind == .expired)
    }

    @Test("a not-yet-valid leaf is serverCertificateNotYetValid")
    func notYetValidLeaf() throws {
        let harness = try Harness(scenario: "not-yet-valid-leaf")
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .serverCertificateNotYetValid)
    }

    @Test("the verification time is injectable: a valid chain checked in 2125 is expired")
    func injectableVerificationTime() throws {
        let harness = try Harness(configure: { $0.verificationTime = Date(timeIntervalSince1970: 4_900_000_000) })
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .serverCertificateHasBadDate)
    }

    @Test("a certificate for another host is serverCertificateUntrusted with hostname-mismatch")
    func wrongHost() throws {
        let harness = try Harness(scenario: "wrong-host")
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.transportFailure?.chainValidationFailure?.kind == .hostnameMismatch)
    }

    @Test("a malformed chunked body is badServerResponse")
    func malformedChunk() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("hello".utf8), chunked: [5], malformation: .malformedChunkSize))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .badServerResponse)
    }

    @Test("a 101 Switching Protocols nobody asked for is badResponse, without interceptors or retries")
    func switchingProtocolsIsBadResponse() throws {
        let harness = try Harness()
        harness.server.enqueue(
            MockResponse(
                status: 200,
                malformation: .garbageThenClose(
                    Data("HTTP/1.1 101 Switching Protocols\r\nUpgrade: h2c\r\nConnection: Upgrade\r\n\r\n".utf8))))
        let interceptor = RecordingInterceptor(actions: [.retry])
        guard case .badResponse(let response as HTTPURLResponse)? = harness.fetch(harness.resource(interceptors: [interceptor])).failure
        else {
            Issue.record("expected badResponse"); return
        }
        #expect(response.statusCode == 101)
        #expect(interceptor.hooks() == ["make", "scheduled"])
    }

    @Test(
        "a header holding CR LF, or a name that is not a token, is refused before anything is sent",
        arguments: [["X-Value": "a\r\nX-Injected: yes"], ["Bad Name": "v"], ["X-Nul": "a\u{0}b"]])
    func headerInjectionRefused(fields: [String: String]) throws {
        let harness = try Harness()
        var request = URLRequest(url: harness.server.url())
        // `setValue` drops such values on Linux, but `allHTTPHeaderFields` keeps them as given.
        request.allHTTPHeaderFields = fields
        let made = request
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(made)) })
        #expect(urlErrorCode(harness.fetch(resource)) == .badURL)
        #expect(harness.server.journal.isEmpty)
    }

    @Test("a redirect from HTTPS to plain HTTP is not followed")
    func redirectNeverLeavesTLS() throws {
        let harness = try Harness()
        let plain = try MockServer()
        plain.enqueue(MockResponse(status: 200, body: Data("clear text".utf8)))
        harness.server.enqueue(MockResponse(status: 302, headers: ["Location": plain.url("/landing").absoluteString]))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .unsupportedURL)
        #expect(plain.journal.isEmpty)
    }

    @Test("a redirect within HTTPS is followed and the response carries the final URL")
    func redirectFollowed() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 301, headers: ["Location": "/moved"]))
        harness.server.enqueue(MockResponse(status: 200, body: Data("here".utf8)))
        let value = try #require(harness.fetch(harness.resource("/old")).success)
        #expect(value.value == Data("here".utf8))
        #expect(value.response.url == harness.server.url("/moved"))
    }

    @Test(
        "a body larger than maximumResponseSize is dataLengthExceedsMaximum, announced or chunked",
        arguments: [nil, [4096, 4096, 4096]] as [[Int]?])
    func maximumResponseSize(chunks: [Int]?) throws {
        let harness = try Harness(configure: { $0.maximumResponseSize = 10_000 })
        harness.server.enqueue(MockResponse(status: 200, body: Data(count: 12_288), chunked: chunks))
        #expect(urlErrorCode(harness.fetch(harness.resource())) == .dataLengthExceedsMaximum)
        harness.server.enqueue(MockResponse(status: 200, body: Data(count: 10_000), chunked: chunks.map { _ in [5000, 5000] }))
        #expect(harness.fetch(harness.resource()).success?.value.count == 10_000)
    }

    @Test("a DELETE answered with a redirect is not replayed at the new location")
    func customMethodsDoNotFollowRedirects() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 303, headers: ["Location": "/elsewhere"]))
        guard case .http(.redirection(303), _, _)? = harness.fetch(harness.resource("/item", method: "DELETE")).failure else {
            Issue.record("expected the 303 itself"); return
        }
        #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 1)
    }
}
