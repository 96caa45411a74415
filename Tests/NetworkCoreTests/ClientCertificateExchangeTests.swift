import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

/// What a client's answer to a server's certificate request means: the code of a refusal (ERR-23), and whether a
/// connection made with it may carry the next request (TRUST-12).
@Suite("A client-certificate exchange")
struct ClientCertificateExchangeTests {

    private static func identity(_ name: String) -> ClientIdentity {
        ClientIdentity(certificateChain: [Data(name.utf8)], privateKey: Data(), subject: "CN=\(name)", notAfter: .distantFuture)
    }

    private static func exchange(_ answer: ClientCertificateExchange.Answer, alert: Int32? = nil) -> ClientCertificateExchange {
        ClientCertificateExchange(acceptableIssuers: ["CN=Root"], answer: answer, fatalAlert: alert)
    }

    @Test("a presented certificate the server refuses with any refusal alert is clientCertificateRejected")
    func presentedAndRefusedIsRejected() {
        for alert: Int32 in [40, 42, 43, 44, 45, 46, 48, 49, 51, 116] {
            #expect(Self.exchange(.presented(Self.identity("a")), alert: alert).code == .clientCertificateRejected, "alert \(alert)")
        }
    }

    @Test("none presented to a server that refuses is clientCertificateRequired; a cancel is too, whatever the server did")
    func noneOrCancelledIsRequired() {
        #expect(Self.exchange(.none, alert: 40).code == .clientCertificateRequired)
        #expect(Self.exchange(.none, alert: 116).code == .clientCertificateRequired)
        #expect(Self.exchange(.cancelled).code == .clientCertificateRequired)
    }

    @Test("an identity the client could not use is secureConnectionFailed: the server refused nothing")
    func unusableIsSecureConnectionFailed() {
        #expect(Self.exchange(.unusable(Self.identity("weak"), reason: "too short")).code == .secureConnectionFailed)
    }

    @Test("an exchange without a refusal alert failed nothing, whatever the answer")
    func noRefusalNoCode() {
        #expect(Self.exchange(.presented(Self.identity("a"))).code == nil)
        #expect(Self.exchange(.none, alert: 0).code == nil)
        #expect(Self.exchange(.presented(Self.identity("a")), alert: 80).code == nil)
    }

    @Test("a handler's disposition is the answer, and an identity that cannot be installed is unusable with the reason")
    func answerOfDisposition() {
        let identity = Self.identity("a")
        #expect(ClientCertificateExchange.Answer.of(.performDefaultHandling) { _ in nil } == .none)
        #expect(ClientCertificateExchange.Answer.of(.cancelAuthenticationChallenge) { _ in nil } == .cancelled)
        #expect(ClientCertificateExchange.Answer.of(.useCredential(identity)) { _ in nil } == .presented(identity))
        #expect(ClientCertificateExchange.Answer.of(.useCredential(identity)) { _ in "no" } == .unusable(identity, reason: "no"))
    }

    @Test("a reused connection carries a request only while the handler answers as it did, asked as a reused one")
    func reuseNeedsTheSameAnswer() {
        let (a, b) = (Self.identity("a"), Self.identity("b"))
        let presentedA = Self.exchange(.presented(a))
        let recorder = Answering(.useCredential(a))
        #expect(presentedA.reuse(by: recorder, host: "h", port: 1) == .sameAnswer)
        recorder.answer.withLock { $0 = .useCredential(b) }
        #expect(presentedA.reuse(by: recorder, host: "h", port: 1) == .anotherAnswer)
        recorder.answer.withLock { $0 = .performDefaultHandling }
        #expect(presentedA.reuse(by: recorder, host: "h", port: 1) == .anotherAnswer)
        #expect(Self.exchange(.none).reuse(by: recorder, host: "h", port: 1) == .sameAnswer)
        recorder.answer.withLock { $0 = .cancelAuthenticationChallenge }
        #expect(presentedA.reuse(by: recorder, host: "h", port: 1) == .cancelled)
        #expect(recorder.seen.withLock { $0 }.allSatisfy { $0.isReusedConnection && $0.acceptableIssuers == ["CN=Root"] && $0.port == 1 })
    }

    @Test("without a handler, a connection that presented none is reused, and one that presented an identity is not")
    func reuseWithoutAHandler() {
        #expect(Self.exchange(.none).reuse(by: nil, host: "h", port: 1) == .sameAnswer)
        #expect(Self.exchange(.presented(Self.identity("a"))).reuse(by: nil, host: "h", port: 1) == .anotherAnswer)
    }

    @Test("a refusal names its alert as RFC 8446 does, and the library that could not present an identity")
    func reasons() {
        #expect(Self.exchange(.presented(Self.identity("a")), alert: 45).reason(library: "X").contains("certificate_expired, 45"))
        #expect(
            Self.exchange(.unusable(Self.identity("a"), reason: "weak"), alert: nil).reason(library: "BoringSSL").hasPrefix("BoringSSL"))
        #expect(TLSAlert.name(116) == "certificate_required")
        #expect(TLSAlert.name(200) == "alert 200")
    }
}

/// Answers client-certificate challenges as told, and records them.
private final class Answering: AuthenticationChallengeHandler {
    let answer: Locked<ClientCertificateChallenge.Disposition>
    let seen = Locked<[ClientCertificateChallenge]>([])

    init(_ answer: ClientCertificateChallenge.Disposition) { self.answer = Locked(answer) }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { .performDefaultHandling }

    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        seen.withLock { $0.append(challenge) }
        return answer.withLock { $0 }
    }
}
