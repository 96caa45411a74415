import Foundation
import NetworkCore
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The one trust judgement both stacks apply, over plain challenges.
@Suite("The trust judgement every stack applies")
struct TrustRefusalTests {

    private struct Answering: AuthenticationChallengeHandler {
        let disposition: ServerTrustChallenge.Disposition
        func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { disposition }
    }

    private static let leaf = ServerCertificate(der: Data(), spkiSHA256: "LEAFPIN=", subject: "CN=api.example.test", issuer: "CN=CA")
    private static let expired = ChainValidationFailure(kind: .expired, code: 10, reason: "certificate has expired", depth: 0)
    private static let revoked = ChainValidationFailure(kind: .revoked, code: 23, reason: "certificate revoked", depth: 0)

    private static func challenge(_ standard: Result<Void, ChainValidationFailure>, verified: Bool = true) -> ServerTrustChallenge {
        ServerTrustChallenge(
            host: "api.example.test", port: 443, servedChain: [leaf], verifiedChain: verified ? [leaf] : [], standardValidation: standard,
            verificationTime: Date(timeIntervalSince1970: 2_000_000_000), isReusedConnection: false)
    }

    private static func judged(
        _ challenge: ServerTrustChallenge, _ disposition: ServerTrustChallenge.Disposition?, checksRevocation: Bool = false
    ) -> TrustRefusal? {
        TrustRefusal.judging(challenge, by: disposition.map(Answering.init), checksRevocation: checksRevocation)
    }

    @Test("without a handler, a chain that validated is trusted and one that did not is refused with its failure")
    func standardValidationDecidesWithoutHandler() throws {
        #expect(Self.judged(Self.challenge(.success(())), nil) == nil)
        guard case .chainNotTrusted(let failure) = Self.judged(Self.challenge(.failure(Self.expired), verified: false), nil) else {
            Issue.record("expected chainNotTrusted")
            return
        }
        #expect(failure.kind == .expired)
    }

    @Test("default handling is standard validation's verdict")
    func defaultHandlingIsStandardValidation() {
        #expect(Self.judged(Self.challenge(.success(())), .performDefaultHandling) == nil)
        #expect(Self.judged(Self.challenge(.failure(Self.expired), verified: false), .performDefaultHandling) != nil)
    }

    @Test("a handler may trust a chain standard validation refused")
    func handlerMayOverruleValidation() {
        #expect(Self.judged(Self.challenge(.failure(Self.expired), verified: false), .useCredential) == nil)
    }

    @Test("a handler cannot waive a revocation failure")
    func revocationIsNotWaived() {
        guard case .chainNotTrusted(let failure) = Self.judged(Self.challenge(.failure(Self.revoked)), .useCredential) else {
            Issue.record("expected chainNotTrusted")
            return
        }
        #expect(failure.kind == .revoked)
    }

    @Test("when revocation is checked, a handler cannot trust a chain that did not verify")
    func revocationNeedsAVerifiedChain() {
        let refusal = Self.judged(Self.challenge(.failure(Self.expired), verified: false), .useCredential, checksRevocation: true)
        guard case .chainNotTrusted(let failure) = refusal else {
            Issue.record("expected chainNotTrusted, got \(String(describing: refusal))")
            return
        }
        #expect(failure.kind == .revocationUnavailable)
    }

    @Test("a handler's refusal is the handler's, even over a chain that validated")
    func handlerRefusalWins() {
        let failure = ServerTrustFailure(reason: .noPinMatched, host: "api.example.test", policy: "api", configuredPins: ["PIN="])
        guard case .handler(let refused) = Self.judged(Self.challenge(.success(())), .cancelAuthenticationChallenge(failure)) else {
            Issue.record("expected the handler's refusal")
            return
        }
        #expect(refused.reason.isSameKind(as: .noPinMatched))
    }

    @Test(
        "codes: an out-of-date chain has the date codes, also through a handler; the rest is untrusted; no verdict is a failed connection")
    func refusalCodes() {
        let notYetValid = ChainValidationFailure(kind: .notYetValid, code: 9, reason: "certificate is not yet valid", depth: 0)
        #expect(TrustRefusal.chainNotTrusted(Self.expired).code == .serverCertificateHasBadDate)
        #expect(TrustRefusal.chainNotTrusted(notYetValid).code == .serverCertificateNotYetValid)
        #expect(TrustRefusal.chainNotTrusted(Self.revoked).code == .serverCertificateUntrusted)
        let byHandler = ServerTrustFailure(reason: .chainNotTrusted(Self.expired), host: "api.example.test")
        #expect(TrustRefusal.handler(byHandler).code == .serverCertificateHasBadDate)
        #expect(TrustRefusal.handler(ServerTrustFailure(reason: .noPinMatched, host: "h")).code == .serverCertificateUntrusted)
        #expect(TrustRefusal.notJudged("no verdict").code == .secureConnectionFailed)
    }
}
