import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import NetworkCore
import Pinning
import Testing

/// TLS client authentication on the NIO stack: the handler is asked when (and only when) a trusted server asks, what
/// it answers is presented, and a reused connection carries a request only while the handler answers as it did.
@Suite("NIO stack: a server that asks for a client certificate", .timeLimit(.minutes(1)))
struct NIOStackClientCertificateTests {
    typealias Mode = MockServer.TLS.ClientAuthentication

    private static func server(
        asking mode: (String) -> Mode, version: MockServer.TLS.Version = .tls13, httpVersions: MockServer.TLS.HTTPVersions = .http1Only
    ) throws -> MockServer {
        var tls = MockServer.TLS(identity: Fixtures.identity("valid-ec256"), httpVersions: httpVersions)
        tls.maximumVersion = version
        tls.clientAuthentication = mode(Fixtures.path("roots/root-a.pem"))
        return try MockServer(tls: tls)
    }

    private static func stack(handler: (any AuthenticationChallengeHandler)?) throws -> NIONetworkStack {
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        return NIONetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: DispatchQueue(label: "test.retry"))
    }

    static func identity(_ scenario: String) throws -> ClientIdentity {
        try ClientIdentity(
            pemCertificateFile: Fixtures.path("\(scenario)/served.pem"), privateKeyFile: Fixtures.path("\(scenario)/leaf.key"), validAt: nil
        )
    }

    static let versions: [MockServer.TLS.Version] = [.tls12, .tls13]

    @Test("a required certificate is presented from the handler, with its intermediate", arguments: versions)
    func aRequiredCertificateIsPresented(version: MockServer.TLS.Version) async throws {
        let server = try Self.server(asking: Mode.required(trusting:), version: version)
        server.enqueue(MockResponse(body: Data("hello".utf8)))
        let handler = ClientAnswers(.useCredential(try Self.identity("client-valid")))
        let stack = try Self.stack(handler: handler)
        defer { stack.invalidateAndCancel() }

        let result = await stack.result(fetching: server.url("/"))

        #expect(result.body == Data("hello".utf8), "\(result)")
        let record = try #require(server.journal.first?.clientCertificate)
        #expect(record.presentedSubjects == ["CN=Fixture client-valid Client", "CN=Fixture client-valid Intermediate 1"])
        #expect(record.verifyResult == 0)
        let challenge = try #require(handler.challenges.first)
        #expect(challenge.host == "localhost" && challenge.port == server.port && !challenge.isReusedConnection)
    }

    @Test("a certificate the server refuses is clientCertificateRejected, in the handshake or after it", arguments: versions)
    func aRefusedCertificateIsRejected(version: MockServer.TLS.Version) async throws {
        let server = try Self.server(asking: Mode.required(trusting:), version: version)
        let stack = try Self.stack(handler: ClientAnswers(.useCredential(try Self.identity("client-expired"))))
        defer { stack.invalidateAndCancel() }

        let error = await stack.urlError(fetching: server.url("/"))

        #expect(error?.code == .clientCertificateRejected, "\(String(describing: error))")
        #expect(error?.transportFailure?.message.contains("refused the client certificate CN=Fixture client-expired Client") == true)
        #expect(server.journal.allSatisfy { $0.requestCount == 0 })
    }

    @Test("a TLS 1.2 server's handshake_failure after it asked, with none presented, is clientCertificateRequired")
    func aMissingCertificateUnderTLS12IsRequired() async throws {
        let server = try Self.server(asking: Mode.required(trusting:), version: .tls12)
        let stack = try Self.stack(handler: nil)
        defer { stack.invalidateAndCancel() }

        let error = await stack.urlError(fetching: server.url("/"))

        #expect(error?.code == .clientCertificateRequired, "\(String(describing: error))")
    }

    @Test("a handler that cancels abandons the handshake: clientCertificateRequired, no application byte", arguments: versions)
    func aHandlerThatCancelsAbandonsTheHandshake(version: MockServer.TLS.Version) async throws {
        let server = try Self.server(asking: Mode.optional(trusting:), version: version)
        let stack = try Self.stack(handler: ClientAnswers(.cancelAuthenticationChallenge))
        defer { stack.invalidateAndCancel() }

        let error = await stack.urlError(fetching: server.url("/"))

        #expect(error?.code == .clientCertificateRequired, "\(String(describing: error))")
        #expect(error?.transportFailure?.message.contains("cancelled the client-certificate challenge") == true)
        #expect(try server.waitForClose(ofConnection: 0).applicationBytesReceived == 0)
    }

    @Test("an identity on an RSA-1024 key is not presented: secureConnectionFailed, and the server saw none")
    func aWeakIdentityIsNotPresented() async throws {
        let server = try Self.server(asking: Mode.required(trusting:))
        let stack = try Self.stack(handler: ClientAnswers(.useCredential(try Self.identity("client-weak-key"))))
        defer { stack.invalidateAndCancel() }

        let error = await stack.urlError(fetching: server.url("/"))

        #expect(error?.code == .secureConnectionFailed, "\(String(describing: error))")
        #expect(error?.transportFailure?.message.contains("RSA key of 1024 bits") == true)
        #expect(try server.waitForClose(ofConnection: 0).clientCertificate?.presentedSubjects.isEmpty == true)
    }

    @Test(
        "a fetch whose handler now presents no identity goes on a new connection, not the one that presented one",
        arguments: [MockServer.TLS.HTTPVersions.http1Only, .http2Only])
    func anotherAnswerTakesANewConnection(httpVersions: MockServer.TLS.HTTPVersions) async throws {
        let server = try Self.server(asking: Mode.optional(trusting:), httpVersions: httpVersions)
        server.enqueue(MockResponse(body: Data("first".utf8)))
        server.enqueue(MockResponse(body: Data("second".utf8)))
        let handler = ClientAnswers(.useCredential(try Self.identity("client-valid")))
        let stack = try Self.stack(handler: handler)
        defer { stack.invalidateAndCancel() }

        #expect(await stack.result(fetching: server.url("/")).body == Data("first".utf8))
        handler.set(.performDefaultHandling)
        #expect(await stack.result(fetching: server.url("/")).body == Data("second".utf8))

        #expect(
            server.journal.map { $0.clientCertificate?.presentedSubjects.first ?? "none" } == ["CN=Fixture client-valid Client", "none"])
        #expect(handler.challenges.map(\.isReusedConnection) == [false, true, false])
    }

    @Test("a fetch whose handler answers as before reuses the connection that presented its identity")
    func theSameAnswerReusesTheConnection() async throws {
        let server = try Self.server(asking: Mode.required(trusting:))
        server.enqueue(MockResponse(body: Data("first".utf8)))
        server.enqueue(MockResponse(body: Data("second".utf8)))
        let stack = try Self.stack(handler: ClientAnswers(.useCredential(try Self.identity("client-valid"))))
        defer { stack.invalidateAndCancel() }

        #expect(await stack.result(fetching: server.url("/")).body != nil)
        #expect(await stack.result(fetching: server.url("/")).body != nil)

        #expect(server.journal.count == 1)
    }

    @Test("concurrent handshakes with servers that ask each present the identity the handler chose for theirs")
    func concurrentHandshakesPresentTheirOwnIdentities() async throws {
        let first = try Self.server(asking: Mode.required(trusting:))
        let second = try Self.server(asking: Mode.required(trusting:))
        let identities = [first.port: try Self.identity("client-valid"), second.port: try Self.identity("client-valid-2")]
        let stack = try Self.stack(handler: IdentityPerPort(identities: identities))
        defer { stack.invalidateAndCancel() }
        let rounds = 8

        // A new connection per fetch (`Connection: close`), all at once to both servers.
        for server in [first, second] {
            for _ in 0..<rounds { server.enqueue(MockResponse(headers: [("Connection", "close")], body: Data("ok".utf8))) }
        }
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for server in [first, second] {
                for _ in 0..<rounds { group.addTask { await stack.result(fetching: server.url("/")).body != nil } }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }

        #expect(outcomes.count == 2 * rounds && outcomes.allSatisfy { $0 })
        #expect(Set(first.journal.map { $0.clientCertificate?.presentedSubjects.first }) == ["CN=Fixture client-valid Client"])
        #expect(Set(second.journal.map { $0.clientCertificate?.presentedSubjects.first }) == ["CN=Fixture client-valid-2 Client"])
    }
}

/// Answers client-certificate challenges as told, and records them; servers are left to standard validation.
final class ClientAnswers: AuthenticationChallengeHandler {
    private let answer: Locked<ClientCertificateChallenge.Disposition>
    private let seen = Locked<[ClientCertificateChallenge]>([])

    init(_ answer: ClientCertificateChallenge.Disposition) { self.answer = Locked(answer) }

    func set(_ disposition: ClientCertificateChallenge.Disposition) { answer.withLock { $0 = disposition } }
    var challenges: [ClientCertificateChallenge] { seen.withLock { $0 } }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { .performDefaultHandling }

    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        seen.withLock { $0.append(challenge) }
        return answer.withLock { $0 }
    }
}

/// Presents the identity chosen for the server's port.
struct IdentityPerPort: AuthenticationChallengeHandler {
    let identities: [Int: ClientIdentity]

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { .performDefaultHandling }

    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        identities[challenge.port].map { .useCredential($0) } ?? .cancelAuthenticationChallenge
    }
}

extension Result where Success == Network.Value<Data, URLResponse> {
    /// The body of a fetch that succeeded.
    fileprivate var body: Data? { try? get().value }
}
