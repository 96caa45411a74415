import Foundation
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Testing

/// HTTP/2 on the NIO stack: chosen in ALPN when offered, one shared connection per server, a stream per fetch, each
/// judged again on a reused connection (TRUST-6).
@Suite("NIO stack: HTTP/2", .timeLimit(.minutes(1)))
struct NIOStackHTTP2Tests {

    private static func stack(
        handler: (any AuthenticationChallengeHandler)? = nil, versions: HTTPVersions = .http2Preferred,
        maximumResponseSize: Int = TransportDefaults.maximumResponseSize
    ) throws -> NIONetworkStack {
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        configuration.httpVersions = versions
        configuration.maximumResponseSize = maximumResponseSize
        return NIONetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: DispatchQueue(label: "test.retry"))
    }

    private static func server(_ versions: MockServer.TLS.HTTPVersions = .http1AndHTTP2) throws -> MockServer {
        try MockServer(tls: MockServer.TLS(identity: Fixtures.identity("valid-ec256"), httpVersions: versions))
    }

    private static func fetch(_ stack: NIONetworkStack, _ url: URL) async throws -> String {
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: url, timeoutInterval: 10))) })
        return String(decoding: try await stack.fetch(resource: resource).value, as: UTF8.self)
    }

    @Test("concurrent fetches to one server share one HTTP/2 connection, a stream each")
    func concurrentFetchesShareOneConnection() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        _ = try await Self.fetch(stack, server.url("/first"))

        let bodies = try await withThrowingTaskGroup(of: String.self) { group in
            for index in 0..<4 {
                server.enqueue(MockResponse(status: 200, body: Data("\(index)".utf8)))
                group.addTask { try await Self.fetch(stack, server.url("/\(index)")) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }

        #expect(Set(bodies) == ["0", "1", "2", "3"])
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.applicationProtocol == "h2")
        #expect(server.journal.first?.requestCount == 5)
    }

    @Test("after a server's graceful GOAWAY the stack closes the connection once its streams ended, without waiting for the server")
    func goAwayClosesTheConnectionOnceItsStreamsEnded() async throws {
        let server = try Self.server(.http2Only)
        // The GOAWAY goes with the response, and the server then waits for the client to leave.
        server.enqueue(MockResponse(body: Data("last".utf8), closeConnection: true, fault: MockFault(.awaitClientClose, .afterResponse)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }

        #expect(try await Self.fetch(stack, server.url("/last")) == "last")

        let connection = try await server.awaitClose(ofConnection: 0)
        #expect(connection.closedBy == .client)
    }

    @Test("a response that breaks HTTP's rules ends its own stream only: the connection goes on serving the next fetch")
    func streamErrorEndsItsStreamOnly() async throws {
        let server = try Self.server(.http2Only)
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        // Its content-length says 100 and its DATA carry 2 bytes: swift-nio-http2 resets the stream (RFC 9113 §8.1.1).
        server.enqueue(MockResponse(headers: [("Content-Length", "100")], body: Data("no".utf8)))
        server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        _ = try await Self.fetch(stack, server.url("/first"))

        #expect(await stack.urlError(fetching: server.url("/broken"))?.code == .badServerResponse)
        #expect(try await Self.fetch(stack, server.url("/next")) == "ok")
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.requestCount == 3)
    }

    @Test("a response past the size limit ends its own stream with RST_STREAM (CANCEL): the connection serves the next fetch")
    func oversizedResponseResetsItsStream() async throws {
        let server = try Self.server(.http2Only)
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        // Half of a 4 KiB body, then the server holds the stream open: only the client's reset can end it.
        server.enqueue(MockResponse(body: Data(repeating: UInt8(ascii: "x"), count: 4096), fault: .stallAfterBodyBytes(2048)))
        server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let stack = try Self.stack(maximumResponseSize: 1024)
        defer { stack.invalidateAndCancel() }
        _ = try await Self.fetch(stack, server.url("/first"))

        #expect(await stack.urlError(fetching: server.url("/large"))?.code == .dataLengthExceedsMaximum)
        #expect(try await Self.fetch(stack, server.url("/next")) == "ok")
        #expect(server.journal.count == 1)
        let resets = server.journal.first?.http2.resets ?? []
        #expect(resets.map(\.streamID) == [3])
        #expect(resets.map(\.code) == [.cancel])
    }

    @Test("a request body four times a stream's window goes whole: the stack sends as the server's credit comes back")
    func largeRequestBodyFollowsFlowControl() async throws {
        let server = try Self.server(.http2Only)
        server.enqueue(MockResponse(status: 200, body: Data("stored".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        let body = Data((0..<(4 * 65_535)).map { UInt8(truncatingIfNeeded: $0 * 7) })
        var request = URLRequest(url: server.url("/upload"), timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = body
        let resource = Network.URLSessionResource(baseRequestMaking: .init { [request] in $0(.success(request)) })

        let value = try await stack.fetch(resource: resource).value
        #expect(String(decoding: value, as: UTF8.self) == "stored")
        #expect(try server.takeRequest().body == body)
    }

    @Test("a cancelled fetch resets its stream (CANCEL) and leaves the shared connection to the next fetch")
    func cancelledFetchResetsItsStream() async throws {
        let server = try Self.server(.http2Only)
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        server.enqueue(MockResponse(fault: .stallAfterRequest))
        server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        _ = try await Self.fetch(stack, server.url("/first"))
        _ = try await server.awaitRequest()

        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: server.url("/held")))) })
        let fetch = stack.fetch(resource: resource) { _ in }
        #expect(try await server.awaitRequest().path == "/held")
        fetch.cancel()

        #expect(try await Self.fetch(stack, server.url("/next")) == "ok")
        #expect(server.journal.count == 1)
        let resets = server.journal.first?.http2.resets ?? []
        #expect(resets.map(\.streamID) == [3])
        #expect(resets.map(\.code) == [.cancel])
    }

    @Test("a stream the server resets on a reused connection is not sent again: the server answered it, with a reset")
    func resetStreamOnReusedConnectionNotSentAgain() async throws {
        let server = try Self.server(.http2Only)
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        server.enqueue(MockResponse(fault: MockFault(.resetStream(.internalError), .afterRequest)))
        server.enqueue(MockResponse(status: 200, body: Data("again".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }
        _ = try await Self.fetch(stack, server.url("/first"))

        #expect(await stack.urlError(fetching: server.url("/reset"))?.code == .networkConnectionLost)
        #expect(server.journal.reduce(0) { $0 + $1.requestCount } == 2)
    }

    @Test("http1Only offers no h2: a server that prefers it answers in HTTP/1.1")
    func http1OnlyOffersNoH2() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("one".utf8)))
        let stack = try Self.stack(versions: .http1Only)
        defer { stack.invalidateAndCancel() }

        #expect(try await Self.fetch(stack, server.url("/")) == "one")
        #expect(server.journal.first?.applicationProtocol == "http/1.1")
    }

    @Test("a reused HTTP/2 connection is judged again before each stream: a refusal opens no stream and names the reason")
    func reusedConnectionRechecked() async throws {
        let server = try Self.server(.http2Only)
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        let handler = NIOStackKeepAliveTests.RefusingOnReuse()
        let stack = try Self.stack(handler: handler)
        defer { stack.invalidateAndCancel() }
        _ = try await Self.fetch(stack, server.url("/first"))

        let refusal = await stack.urlError(fetching: server.url("/second"))
        #expect(refusal?.code == .serverCertificateUntrusted)
        #expect(refusal?.serverTrustFailure?.detail == "refused on reuse")
        #expect(handler.reusedChecks.withLock { $0 } == 1)
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.requestCount == 1)
    }
}
