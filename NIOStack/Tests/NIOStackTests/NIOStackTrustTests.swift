import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Pinning
import Testing

/// The NIO stack against the MockServer over real TLS on loopback: trust is decided inside the handshake.
@Suite("NIO stack: trust and pinning", .timeLimit(.minutes(1)))
struct NIOStackTrustTests {

    private static func server(_ scenario: String = "valid-ec256") throws -> MockServer {
        try MockServer(tls: MockServer.TLS(identity: Fixtures.identity(scenario)))
    }

    private static func stack(roots: [String] = ["roots/root-a.pem"], handler: (any AuthenticationChallengeHandler)? = nil) throws
        -> NIONetworkStack
    {
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: roots.map(Fixtures.path))
        return NIONetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: DispatchQueue(label: "test.retry"))
    }

    private static func resource(_ url: URL) -> Network.URLSessionResource {
        Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: url, timeoutInterval: 10))) })
    }

    private static func evaluator(pins: Set<String>) throws -> ServerTrustEvaluator {
        let policy = try ServerTrustEvaluator.PinningPolicy(domainName: "localhost", pinnedHashes: pins)
        return try ServerTrustEvaluator(configuration: .init(pinningPolicies: [policy]))
    }

    @Test("an IPv4 address written short (127.1) is the address 127.0.0.1: no SNI, matched against the certificate's IP")
    func shorthandIPv4IsTheAddress() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("by address".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }

        let value = try await stack.fetch(resource: Self.resource(URL(string: "https://127.1:\(server.port)/")!))

        #expect(value.value == Data("by address".utf8))
        #expect(server.journal.first?.sniName == nil)
    }

    @Test("a fetch over TLS to a server whose chain ends at a trusted root returns the body")
    func trustedFetchSucceeds() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("hello".utf8)))
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }

        let value = try await stack.fetch(resource: Self.resource(server.url("/greeting")))

        #expect(value.value == Data("hello".utf8))
        #expect(try await server.awaitRequest().path == "/greeting")
    }

    @Test("a fetch pinned to the intermediate's key, with a backup pin, succeeds")
    func pinnedFetchSucceeds() async throws {
        let server = try Self.server()
        server.enqueue(MockResponse(status: 200, body: Data("pinned".utf8)))
        let pins: Set = [try Fixtures.pin("valid-ec256", role: "intermediate-1"), try Fixtures.pin("backup-key", role: "key")]
        let stack = try Self.stack(handler: try Self.evaluator(pins: pins))
        defer { stack.invalidateAndCancel() }

        let value = try await stack.fetch(resource: Self.resource(server.url("/")))

        #expect(value.value == Data("pinned".utf8))
    }

    @Test("a wrong pin is refused in the handshake: no request byte reaches the server, and the failure names host, policy and pins")
    func wrongPinRefusedInHandshake() async throws {
        let server = try Self.server()
        let pins: Set = [try Fixtures.pin("attacker-ca", role: "intermediate-1"), try Fixtures.pin("backup-key", role: "key")]
        let stack = try Self.stack(handler: try Self.evaluator(pins: pins))
        defer { stack.invalidateAndCancel() }

        let error = try #require(await stack.urlError(fetching: server.url("/secret")))
        let connection = try await server.awaitClose(ofConnection: 0)

        #expect(error.code == .serverCertificateUntrusted)
        let failure = try #require(error.serverTrustFailure)
        #expect(failure.reason == .noPinMatched)
        #expect(failure.host == "localhost")
        #expect(failure.policy?.contains("localhost") == true)
        #expect(Set(failure.configuredPins) == pins)
        #expect(failure.seenCertificates.map(\.spkiSHA256).contains(try Fixtures.pin("valid-ec256", role: "leaf")))
        #expect(connection.requestCount == 0)
        #expect(connection.applicationBytesReceived == 0)
    }

    @Test("a chain to a root the stack does not trust is refused in the handshake as untrusted")
    func untrustedRootRefused() async throws {
        let server = try Self.server()
        let stack = try Self.stack(roots: ["roots/root-b.pem"])
        defer { stack.invalidateAndCancel() }

        let error = try #require(await stack.urlError(fetching: server.url("/")))
        let connection = try await server.awaitClose(ofConnection: 0)

        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.transportFailure?.chainValidationFailure?.kind == .unableToGetIssuer)
        #expect(connection.requestCount == 0)
    }

    @Test("an expired leaf fails with the bad-date code")
    func expiredLeafHasBadDate() async throws {
        let server = try Self.server("expired-leaf")
        let stack = try Self.stack()
        defer { stack.invalidateAndCancel() }

        let error = try #require(await stack.urlError(fetching: server.url("/")))

        #expect(error.code == .serverCertificateHasBadDate)
        #expect(error.transportFailure?.chainValidationFailure?.kind == .expired)
    }
}
