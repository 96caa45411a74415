import Foundation
import NetworkCore
import Testing

/// `ClientCertificateHandler`: which identity it presents to which host, and who judges servers.
@Suite("ClientCertificateHandler")
struct ClientCertificateHandlerTests {
    private static func identity(_ name: String) -> ClientIdentity {
        ClientIdentity(certificateChain: [Data(name.utf8)], privateKey: Data(), subject: "CN=\(name)", notAfter: .distantFuture)
    }

    private static func challenge(_ host: String) -> ClientCertificateChallenge {
        ClientCertificateChallenge(host: host, port: 443, acceptableIssuers: [], isReusedConnection: false)
    }

    private static func trustChallenge(_ host: String) -> ServerTrustChallenge {
        ServerTrustChallenge(
            host: host, port: 443, servedChain: [], verifiedChain: [], standardValidation: .success(()), verificationTime: Date(),
            isReusedConnection: false)
    }

    /// A server-trust handler that refuses every server.
    private struct Refusing: AuthenticationChallengeHandler {
        func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
            .cancelAuthenticationChallenge(ServerTrustFailure(reason: .refused, host: challenge.host, detail: "test"))
        }
    }

    @Test("one identity is presented to every host")
    func oneIdentityIsPresentedToEveryHost() {
        let handler = ClientCertificateHandler(presenting: Self.identity("a"))

        #expect(handler.handle(Self.challenge("api.example.test")) == .useCredential(Self.identity("a")))
        #expect(handler.handle(Self.challenge("other.example.test")) == .useCredential(Self.identity("a")))
    }

    @Test("per host, a host's own identity, else the one for other hosts, else none; names compared without case or a trailing dot")
    func perHostIdentities() {
        let handler = ClientCertificateHandler(presenting: ["API.example.test.": Self.identity("api")], otherHosts: Self.identity("other"))
        let strict = ClientCertificateHandler(presenting: ["api.example.test": Self.identity("api")])

        #expect(handler.handle(Self.challenge("api.example.test")) == .useCredential(Self.identity("api")))
        #expect(handler.handle(Self.challenge("www.example.test")) == .useCredential(Self.identity("other")))
        #expect(strict.handle(Self.challenge("www.example.test")) == .performDefaultHandling)
    }

    @Test("servers are judged by the handler given, else by standard validation")
    func serversAreJudgedByTheHandlerGiven() {
        let withTrust = ClientCertificateHandler(presenting: Self.identity("a"), serverTrust: Refusing())
        let withoutTrust = ClientCertificateHandler(presenting: Self.identity("a"))

        guard case .cancelAuthenticationChallenge = withTrust.handle(Self.trustChallenge("a.example.test")) else {
            Issue.record("expected the server-trust handler's refusal")
            return
        }
        guard case .performDefaultHandling = withoutTrust.handle(Self.trustChallenge("a.example.test")) else {
            Issue.record("expected standard validation")
            return
        }
    }

    @Test("a handler that only judges servers presents no client certificate")
    func aServerOnlyHandlerPresentsNone() {
        #expect(Refusing().handle(Self.challenge("a.example.test")) == .performDefaultHandling)
    }

    @Test("an identity's description names its subject, never its key")
    func anIdentitysDescriptionNeverShowsItsKey() {
        let identity = ClientIdentity(
            certificateChain: [Data()], privateKey: Data("SECRET".utf8), subject: "CN=client", notAfter: .distantFuture)

        #expect(identity.description == "ClientIdentity(CN=client, 1 certificate)")
        #expect(!"\(ClientCertificateChallenge.Disposition.useCredential(identity))".contains("privateKey"))
    }
}

extension ClientCertificateHandlerTests {
    @Test("two keys for the same host: the one that sorts first wins, every time")
    func duplicateHostsAreDeterministic() {
        for _ in 0..<20 {
            let handler = ClientCertificateHandler(presenting: [
                "example.test": ClientIdentity(
                    certificateChain: [Data("b".utf8)], privateKey: Data(), subject: "CN=b", notAfter: .distantFuture),
                "Example.TEST": ClientIdentity(
                    certificateChain: [Data("a".utf8)], privateKey: Data(), subject: "CN=a", notAfter: .distantFuture),
            ])
            let challenge = ClientCertificateChallenge(host: "example.test", port: 443, acceptableIssuers: [], isReusedConnection: false)
            guard case .useCredential(let chosen) = handler.handle(challenge) else {
                Issue.record("expected an identity")
                return
            }
            #expect(chosen.subject == "CN=a")  // "Example.TEST" sorts before "example.test"
        }
    }
}
