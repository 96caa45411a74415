import Foundation
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Testing

/// A request's fields over HTTP/2: what HTTP/2 forbids is left out or normalised, and a request it still cannot carry
/// fails at once, on its own stream, instead of being sent again and again.
@Suite("NIO stack: a request's fields over HTTP/2", .timeLimit(.minutes(1)))
struct NIOStackHTTP2RequestFieldsTests {

    private static func stack() throws -> NIONetworkStack {
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        return NIONetworkStack(configuration: configuration, retryQueue: DispatchQueue(label: "test.retry"))
    }

    private static func server() throws -> MockServer {
        try MockServer(tls: MockServer.TLS(identity: Fixtures.identity("valid-ec256"), httpVersions: .http2Only))
    }

    @Test("TE: Trailers in any case goes as HTTP/2's only TE, `te: trailers`")
    func teTrailersGoesLowercase() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        var request = URLRequest(url: server.url("/te"), timeoutInterval: 10)
        request.setValue("Trailers", forHTTPHeaderField: "TE")

        guard case .success(let value) = await stack.result(sending: request) else {
            Issue.record("the fetch with TE: Trailers failed")
            return
        }
        #expect(String(decoding: value.value, as: UTF8.self) == "ok")
        #expect(try server.takeRequest().headerValues("te") == ["trailers"])
    }

    @Test(
        "a request HTTP/2 refuses to carry (a bodiless GET announcing 5 bytes) fails at once as badURL, on one connection that serves the next fetch"
    )
    func requestHTTP2CannotCarryFailsAtOnce() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        server.enqueue(MockResponse(status: 200, body: Data("next".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        #expect(try await stack.result(fetching: server.url("/first")).get().value == Data("first".utf8))
        var request = URLRequest(url: server.url("/announces-a-body"), timeoutInterval: 10)
        request.setValue("5", forHTTPHeaderField: "Content-Length")

        let refusal = await stack.urlError(sending: request)

        #expect(refusal?.code == .badURL)
        #expect(try await stack.result(fetching: server.url("/next")).get().value == Data("next".utf8))
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.requestCount == 2)
    }
}
