import Foundation
import MockServer
import TestTraits
import Testing

/// A fault's trigger names the same moment over HTTP/1.1 and HTTP/2: one timeline decides for both.
@Suite("A fault fires at the same moment over HTTP/1.1 and HTTP/2", .scaledTimeLimit(minutes: 1), .blocking)
struct FaultTimingAcrossProtocolsTests: ServerTests {

    private func server(_ versions: MockServer.TLS.HTTPVersions) throws -> MockServer {
        let files = TestCertificates.shared
        return try makeServer(
            tls: MockServer.TLS(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), httpVersions: versions))
    }

    private static let protocols: [(versions: MockServer.TLS.HTTPVersions, curl: String)] = [
        (.http1Only, "--http1.1"), (.http2Only, "--http2"),
    ]

    @Test("a request body shorter than the fault's count is cut at its end, keeping what came")
    func shortRequestBodyCutAtItsEnd() throws {
        for (versions, flag) in Self.protocols {
            let server = try server(versions)
            server.enqueue(MockResponse(body: Data("unsent".utf8), fault: MockFault(.close, .afterRequestBodyBytes(10))))

            let result = curlTLS(server, "/short", [flag, "--data-binary", "abc"])

            // Closed at once (52 empty reply over HTTP/1.1, 16 or 92 over HTTP/2), not left waiting for bytes that never
            // come until curl's own time limit (28).
            #expect(![0, 28].contains(result.exitCode), "\(versions): \(result.exitCode) \(result.stderr)")
            let request = try server.takeRequest()
            #expect(request.bodyText == "abc", "\(versions)")
            #expect(request.failure == "server cut the request body after 3 bytes", "\(versions)")
        }
    }

    @Test("a response body shorter than the fault's count goes out whole, then the fault fires")
    func shortResponseThenFault() throws {
        for (versions, flag) in Self.protocols {
            let server = try server(versions)
            server.enqueue(MockResponse(body: Data("0123456789".utf8), fault: MockFault(.close, .afterResponseBodyBytes(100))))

            let result = curlTLS(server, "/whole", [flag])

            #expect(result.body == "0123456789", "\(versions): \(result.stderr)")
            // Without the fault, the keep-alive connection would stay open until curl closed it.
            #expect(closedRecord(server)?.closedBy == .server, "\(versions)")
        }
    }
}
