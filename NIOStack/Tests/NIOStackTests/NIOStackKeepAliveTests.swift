import Foundation
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Testing

/// Keep-alive connections: shared by sequential fetches (HTTP-12), and judged again before each request (TRUST-6).
@Suite("NIO stack: keep-alive", .timeLimit(.minutes(1)))
struct NIOStackKeepAliveTests {

    /// Trusts the server in the handshake, and refuses it on every reused connection; counts what it was asked.
    final class RefusingOnReuse: AuthenticationChallengeHandler {
        let reusedChecks = Locked(0)

        func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
            guard challenge.isReusedConnection else { return .performDefaultHandling }
            reusedChecks.withLock { $0 += 1 }
            return .cancelAuthenticationChallenge(ServerTrustFailure(reason: .refused, host: challenge.host, detail: "refused on reuse"))
        }
    }

    private static func stack(handler: (any AuthenticationChallengeHandler)? = nil) throws -> NIONetworkStack {
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        return NIONetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: DispatchQueue(label: "test.retry"))
    }

    private static func resource(_ url: URL) -> Network.URLSessionResource {
        Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: url, timeoutInterval: 10))) })
    }

    @Test("three sequential fetches to one server share one connection")
    func sequentialFetchesShareOneConnection() async throws {
        let server = try MockServer(tls: MockServer.TLS(identity: Fixtures.identity("valid-ec256")))
        for body in ["1", "2", "3"] { server.enqueue(MockResponse(status: 200, body: Data(body.utf8))) }
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }

        var bodies: [String] = []
        for _ in 0..<3 {
            bodies.append(String(decoding: try await stack.fetch(resource: Self.resource(server.url("/"))).value, as: UTF8.self))
        }

        #expect(bodies == ["1", "2", "3"])
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.requestCount == 3)
    }

    @Test("a reused connection is judged again before its request: a refusal then sends nothing and names the reason")
    func reusedConnectionRechecked() async throws {
        let server = try MockServer(tls: MockServer.TLS(identity: Fixtures.identity("valid-ec256")))
        server.enqueue(MockResponse(status: 200, body: Data("first".utf8)))
        let handler = RefusingOnReuse()
        let stack = try Self.stack(handler: handler)
        defer { stack.invalidateAndCancel() }
        _ = try await stack.fetch(resource: Self.resource(server.url("/first")))

        do {
            _ = try await stack.fetch(resource: Self.resource(server.url("/second")))
            Issue.record("the second fetch succeeded on a refused connection")
        } catch {
            guard case .url(let urlError) = error else { Issue.record("expected a URLError, got \(error)"); return }
            #expect(urlError.code == .serverCertificateUntrusted)
            #expect(urlError.serverTrustFailure?.detail == "refused on reuse")
        }

        #expect(handler.reusedChecks.withLock { $0 } == 1)
        #expect(server.journal.count == 1)
        #expect(server.journal.first?.requestCount == 1)
    }
}
