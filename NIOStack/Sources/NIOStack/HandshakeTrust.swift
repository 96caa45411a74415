import Foundation
import NIOCore
import NIOSSL
import NetworkCore
import X509

/// The trust decision of one TLS handshake: NIOSSL's custom verification callback, which replaces BoringSSL's own
/// checks. It validates the served chain with ``ChainValidator``, asks the stack's challenge handler, and records
/// why it refused, so that the fetch's `URLError` says so (``TransportErrors``).
final class HandshakeTrust: Sendable {

    private let host: String
    private let port: Int
    private let validator: ChainValidator
    private let handler: (any AuthenticationChallengeHandler)?
    private let verificationTime: Date?
    private let refusalState = Locked<TrustRefusal?>(nil)
    private let clientCertificateState = Locked<ClientCertificateExchange?>(nil)
    /// What the handshake established, for the check before each request on the connection once it is reused.
    private let evidence = Locked<
        (served: [ServerCertificate], verified: [ServerCertificate], standard: Result<Void, ChainValidationFailure>)?
    >(nil)

    init(host: String, port: Int, validator: ChainValidator, handler: (any AuthenticationChallengeHandler)?, verificationTime: Date?) {
        self.host = host
        self.port = port
        self.validator = validator
        self.handler = handler
        self.verificationTime = verificationTime
    }

    /// The refusal of this connection's handshake, if the server was refused.
    var refusal: TrustRefusal? { refusalState.withLock { $0 } }

    /// What the client answered when the server asked it for a certificate; `nil` while the server has not asked.
    var clientCertificate: ClientCertificateExchange? { clientCertificateState.withLock { $0 } }

    /// The callback NIOSSL calls with the served chain, leaf first.
    func verify(_ served: [NIOSSLCertificate], promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>) {
        // Started on the event loop's own thread: the verifier's `async` never waits on anything, so the decision
        // is usually made before this returns, without two thread hops per handshake (a tenth of a handshake's time).
        Task.immediate { promise.succeed(await self.decide(served)) }
    }

    private func decide(_ served: [NIOSSLCertificate]) async -> NIOSSLVerificationResultWithMetadata {
        let parsed: [ParsedCertificate]
        do {
            parsed = try served.map { try validator.parsedCertificates.parsed(try $0.toDERBytes()) }
        } catch {
            // swift-certificates refuses to parse some certificates the profile refuses (a short RSA key, DSA, a curve
            // it lacks, a negative serial), or a certificate such a key signed: the refusal is then the profile's.
            let refusal = served.enumerated().lazy.compactMap { depth, certificate in
                (try? certificate.toDERBytes()).flatMap { self.validator.unparsedRefusal(of: $0, depth: depth) }
            }.first
            return refuse(refusal.map(TrustRefusal.chainNotTrusted) ?? .notJudged("a served certificate cannot be read: \(error)"))
        }
        let time = verificationTime ?? Date()
        let outcome = await validator.validate(served: parsed, host: host, at: time)
        // Each certificate of the path is a served one or a root, whose summaries and BoringSSL forms exist already.
        var verified: [(summary: ServerCertificate, boringSSL: NIOSSLCertificate)] = []
        for certificate in outcome.verified {
            if let index = parsed.firstIndex(where: { $0.certificate == certificate }) {
                verified.append((parsed[index].summary, served[index]))
            } else if let anchor = validator.anchors.first(where: { $0.certificate == certificate }) {
                verified.append((anchor.summary, anchor.boringSSL))
            } else {
                return refuse(.notJudged("the verified chain holds a certificate neither served nor trusted"))
            }
        }
        // A chain that did not verify is no verified chain: only a host-name failure, checked once the path verified,
        // keeps it (TRUST-4), so that no handler matches pins on a path no anchor vouches for.
        if case .failure(let failure) = outcome.result, failure.kind != .hostnameMismatch { verified = [] }
        let summaries = verified.map(\.summary)
        evidence.withLock { $0 = (parsed.map(\.summary), summaries, outcome.result) }
        let challenge = ServerTrustChallenge(
            host: host, port: port, servedChain: parsed.map(\.summary), verifiedChain: summaries, standardValidation: outcome.result,
            verificationTime: time, isReusedConnection: false)
        if let refusal = judge(challenge) { return refuse(refusal) }
        // NIOSSL keeps the chain for `peerValidatedCertificateChain`; a chain the handler trusted without a path is the served one.
        let chain = verified.isEmpty ? served : verified.map(\.boringSSL)
        return .certificateVerified(VerificationMetadata(chain.isEmpty ? nil : NIOSSL.ValidatedCertificateChain(chain)))
    }

    /// The check before a request on this connection once reused: the handler is asked again, with the handshake's
    /// chains, so that a refusal holds on reused connections too (TRUST-6). `nil` when the server is still trusted.
    func recheck() -> TrustRefusal? {
        guard let evidence = evidence.withLock({ $0 }) else { return .notJudged("the reused connection has no trust verdict") }
        let challenge = ServerTrustChallenge(
            host: host, port: port, servedChain: evidence.served, verifiedChain: evidence.verified, standardValidation: evidence.standard,
            verificationTime: verificationTime ?? Date(), isReusedConnection: true)
        return judge(challenge)
    }

    /// NIOSSL's context callback, when the server asked for a client certificate: the handler's answer, installed on
    /// the connection. BoringSSL verified the server before (TRUST-11): no identity goes to a server that was refused.
    func answerClientCertificateRequest(_ promise: EventLoopPromise<NIOSSLContextConfigurationOverride>) {
        guard refusal == nil, evidence.withLock({ $0 != nil }) else { return promise.fail(NotJudgedYet()) }
        let challenge = ClientCertificateChallenge(host: host, port: port, acceptableIssuers: [], isReusedConnection: false)
        var override = NIOSSLContextConfigurationOverride.noChanges
        let answer = ClientCertificateExchange.Answer.of(handler?.handle(challenge) ?? .performDefaultHandling) { identity in
            do {
                override = try ClientIdentityOverride.presenting(identity)
                return nil
            } catch {
                return "\(error)"
            }
        }
        // swift-nio-ssl does not pass on the names of the CAs the server accepts.
        clientCertificateState.withLock { $0 = ClientCertificateExchange(acceptableIssuers: [], answer: answer) }
        switch answer {
        case .presented, .none: promise.succeed(override)
        case .cancelled, .unusable: promise.fail(NotPresented())
        }
    }

    /// Whether this connection, once reused, may carry a request: its server did not ask for a certificate, or the
    /// handler answers as it did then (TRUST-12).
    func recheckClientIdentity() -> ClientCertificateExchange.Reuse {
        clientCertificate?.reuse(by: handler, host: host, port: port) ?? .sameAnswer
    }

    /// The server asked for a client certificate before its own chain was judged.
    struct NotJudgedYet: Error {}

    /// The handler cancelled the challenge, or the identity it chose could not be used.
    struct NotPresented: Error {}

    /// The one judgement every stack of the package makes.
    private func judge(_ challenge: ServerTrustChallenge) -> TrustRefusal? {
        TrustRefusal.judging(challenge, by: handler, checksRevocation: validator.revocation != nil)
    }

    private func refuse(_ refusal: TrustRefusal) -> NIOSSLVerificationResultWithMetadata {
        refusalState.withLock { $0 = refusal }
        return .failed
    }
}
