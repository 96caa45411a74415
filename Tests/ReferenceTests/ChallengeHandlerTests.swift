import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import NetworkCore
import TestTraits
import Testing

/// A handler whose answer can be changed between fetches, and which records what it was asked.
final class ScriptedHandler: AuthenticationChallengeHandler {
    private let answer: Locked<ServerTrustChallenge.Disposition>
    private let seen = Locked<[ServerTrustChallenge]>([])

    init(_ answer: ServerTrustChallenge.Disposition) { self.answer = Locked(answer) }

    func set(_ disposition: ServerTrustChallenge.Disposition) { answer.withLock { $0 = disposition } }
    var challenges: [ServerTrustChallenge] { seen.withLock { $0 } }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        seen.withLock { $0.append(challenge) }
        return answer.withLock { $0 }
    }
}

@Suite("The authentication challenge handler decides inside the handshake", .scaledTimeLimit(minutes: 1), .blocking)
struct ChallengeHandlerTests {

    static func refusal(_ host: String) -> ServerTrustChallenge.Disposition {
        .cancelAuthenticationChallenge(ServerTrustFailure(reason: .refused, host: host, detail: "test handler"))
    }

    @Test("the handler sees the host, the served chain and the verified chain with the root the server did not send")
    func handlerSeesChains() throws {
        let handler = ScriptedHandler(.performDefaultHandling)
        let harness = try Harness(handler: handler)
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
        let challenge = try #require(handler.challenges.first)
        #expect(challenge.host == "localhost")
        #expect(challenge.port == harness.server.port)
        #expect(!challenge.isReusedConnection)
        #expect(
            challenge.servedChain.map(\.spkiSHA256) == [
                Fixtures.pin("valid-ec256", role: "leaf"), Fixtures.pin("valid-ec256", role: "intermediate-1"),
            ])
        #expect(
            challenge.verifiedChain.map(\.spkiSHA256) == [
                Fixtures.pin("valid-ec256", role: "leaf"), Fixtures.pin("valid-ec256", role: "intermediate-1"),
                Fixtures.pin("valid-ec256", role: "root"),
            ])
        #expect(challenge.verifiedChain.first?.subject == "CN=localhost")
        guard case .success = challenge.standardValidation else { Issue.record("expected standard validation to pass"); return }
    }

    @Test("a refusal fails with serverCertificateUntrusted and the handler's reason, and the server receives no request byte")
    func refusalSendsNothing() throws {
        let handler = ScriptedHandler(Self.refusal("localhost"))
        let harness = try Harness(handler: handler)
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.serverTrustFailure?.reason == .refused)
        #expect(harness.server.journal.count >= 1)
        #expect(harness.server.journal.allSatisfy { $0.applicationBytesReceived == 0 && $0.requestCount == 0 })
    }

    @Test("a handler may accept a chain that standard validation refused")
    func handlerMayAcceptUntrusted() throws {
        let handler = ScriptedHandler(.useCredential)
        let harness = try Harness(scenario: "untrusted-root", handler: handler)
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
        guard case .failure = handler.challenges.first?.standardValidation else { Issue.record("expected a standard failure"); return }
    }

    @Test("with default handling, standard validation decides")
    func defaultHandlingApplesStandardValidation() throws {
        let harness = try Harness(scenario: "untrusted-root", handler: ScriptedHandler(.performDefaultHandling))
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .serverCertificateUntrusted)
    }

    @Test("a reused connection is checked again before each request, and a refusal there sends no request byte")
    func reusedConnectionRechecked() throws {
        let handler = ScriptedHandler(.performDefaultHandling)
        let harness = try Harness(handler: handler)
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
        handler.set(Self.refusal("localhost"))
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.serverTrustFailure?.reason == .refused)
        #expect(handler.challenges.last?.isReusedConnection == true)
        #expect(harness.server.journal.count == 1)
        #expect(harness.server.journal.first?.requestCount == 1)
    }

    @Test("a resumed TLS session cannot skip the handler: it is asked on the resumed connection as on a new one")
    func resumedSessionAsksTheHandler() throws {
        let handler = ScriptedHandler(.performDefaultHandling)
        let server = try MockServer(tls: .init(identity: Fixtures.identity("valid-ec256"), sessionResumption: true))
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        let stack = Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler, retryQueue: .global())
        for _ in 0..<2 {
            server.enqueue(MockResponse(status: 200, body: Data("x".utf8), closeConnection: true))
            let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
            stack.fetch(resource: .init(baseRequestMaking: .init { [url = server.url()] in $0(.success(URLRequest(url: url))) })) {
                recorder.record($0)
            }
            #expect(recorder.next()?.success != nil)
        }
        #expect(server.journal.count == 2)
        #expect(server.journal.map(\.sessionReused) == [false, true])
        #expect(handler.challenges.count == 2)
        #expect(handler.challenges.allSatisfy { !$0.isReusedConnection })
        #expect(
            handler.challenges.map { $0.verifiedChain.map(\.spkiSHA256) }.allSatisfy {
                $0 == handler.challenges[0].verifiedChain.map(\.spkiSHA256)
            })
    }

    @Test("a reused connection accepted under a lax answer is refused once the handler defers to standard validation")
    func reusedConnectionKeepsItsHandshakeVerdict() throws {
        let handler = ScriptedHandler(.useCredential)
        let harness = try Harness(scenario: "untrusted-root", handler: handler)
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
        handler.set(.performDefaultHandling)
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.transportFailure?.chainValidationFailure != nil)
        #expect(handler.challenges.last?.isReusedConnection == true)
        guard case .failure = handler.challenges.last?.standardValidation else {
            Issue.record("the re-check must see the handshake's failure"); return
        }
        #expect(harness.server.journal.count == 1)
        #expect(harness.server.journal.first?.requestCount == 1)
    }

    @Test("a chain that fails standard validation reaches the handler with an empty verified chain")
    func failedValidationHasNoVerifiedChain() throws {
        let handler = ScriptedHandler(.performDefaultHandling)
        let harness = try Harness(scenario: "untrusted-root", handler: handler)
        _ = harness.fetch(harness.resource())
        let challenge = try #require(handler.challenges.first)
        #expect(challenge.verifiedChain.isEmpty)
        #expect(!challenge.servedChain.isEmpty)
    }

    @Test("a handler refusing an expired chain gives the date code")
    func refusalOfExpiredChainKeepsTheDateCode() throws {
        let harness = try Harness(scenario: "expired-leaf", handler: RefuseWithStandardReason())
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .serverCertificateHasBadDate)
        #expect(error.serverTrustFailure != nil)
    }
}

/// Refuses exactly what standard validation refuses, giving its reason.
struct RefuseWithStandardReason: AuthenticationChallengeHandler {
    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        guard case .failure(let failure) = challenge.standardValidation else { return .useCredential }
        return .cancelAuthenticationChallenge(ServerTrustFailure(reason: .chainNotTrusted(failure), host: challenge.host))
    }
}
