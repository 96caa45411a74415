import Foundation
import NIOCore
import NIOSSL
import NetworkCore
import Synchronization
import X509

/// The trust decision of one TLS handshake: NIOSSL's custom verification callback, which replaces BoringSSL's own
/// checks. It validates the served chain with ``ChainValidator``, asks the stack's challenge handler, and records
/// why it refused, so that the fetch's `URLError` says so (``TransportErrors``).
final class HandshakeTrust: Sendable {

    /// Why a server was refused, when it was.
    enum Refusal: Sendable {
        /// Standard validation failed, and no handler overruled it.
        case chainNotTrusted(ChainValidationFailure)
        /// The handler refused.
        case handler(ServerTrustFailure)
        /// The server could not be judged (a certificate that does not parse).
        case notJudged(String)
    }

    private let host: String
    private let port: Int
    private let validator: ChainValidator
    private let handler: (any AuthenticationChallengeHandler)?
    private let verificationTime: Date?
    private let refusalState = Mutex<Refusal?>(nil)
    /// What the handshake established, for the check before each request on the connection once it is reused.
    private let evidence = Mutex<
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
    var refusal: Refusal? { refusalState.withLock { $0 } }

    /// The callback NIOSSL calls with the served chain, leaf first.
    func verify(_ served: [NIOSSLCertificate], promise: EventLoopPromise<NIOSSLVerificationResultWithMetadata>) {
        promise.completeWithTask { await self.decide(served) }
    }

    private func decide(_ served: [NIOSSLCertificate]) async -> NIOSSLVerificationResultWithMetadata {
        let parsed: [ParsedCertificate]
        do {
            parsed = try served.map { try ParsedCertificate(der: try $0.toDERBytes()) }
        } catch {
            return refuse(.notJudged("a served certificate cannot be read: \(error)"))
        }
        let time = verificationTime ?? Date()
        let outcome = await validator.validate(served: parsed.map(\.certificate), host: host, at: time)
        let verified: [ServerCertificate]
        do {
            verified = try outcome.verified.map { try ParsedCertificate.summary(of: $0) }
        } catch {
            return refuse(.notJudged("a certificate of the verified chain cannot be encoded: \(error)"))
        }
        evidence.withLock { $0 = (parsed.map(\.summary), verified, outcome.result) }
        let challenge = ServerTrustChallenge(
            host: host, port: port, servedChain: parsed.map(\.summary), verifiedChain: verified, standardValidation: outcome.result,
            verificationTime: time, isReusedConnection: false)
        if let refusal = judge(challenge) { return refuse(refusal) }
        return accept(verified: outcome.verified, served: served)
    }

    /// The check before a request on this connection once reused: the handler is asked again, with the handshake's
    /// chains, so that a refusal holds on reused connections too (TRUST-6). `nil` when the server is still trusted.
    func recheck() -> Refusal? {
        guard let evidence = evidence.withLock({ $0 }) else { return .notJudged("the reused connection has no trust verdict") }
        let challenge = ServerTrustChallenge(
            host: host, port: port, servedChain: evidence.served, verifiedChain: evidence.verified, standardValidation: evidence.standard,
            verificationTime: verificationTime ?? Date(), isReusedConnection: true)
        return judge(challenge)
    }

    private func judge(_ challenge: ServerTrustChallenge) -> Refusal? {
        switch handler?.handle(challenge) ?? .performDefaultHandling {
        case .useCredential:
            return nil
        case .performDefaultHandling:
            if case .failure(let failure) = challenge.standardValidation { return .chainNotTrusted(failure) }
            return nil
        case .cancelAuthenticationChallenge(let failure):
            return .handler(failure)
        }
    }

    private func accept(verified: [Certificate], served: [NIOSSLCertificate]) -> NIOSSLVerificationResultWithMetadata {
        // NIOSSL keeps the chain for `peerValidatedCertificateChain`; a chain the handler trusted without a path is the served one.
        let path = verified.isEmpty ? nil : try? verified.map { try NIOSSLCertificate(bytes: Self.der($0), format: .der) }
        let chain = path ?? served
        return .certificateVerified(VerificationMetadata(chain.isEmpty ? nil : NIOSSL.ValidatedCertificateChain(chain)))
    }

    private func refuse(_ refusal: Refusal) -> NIOSSLVerificationResultWithMetadata {
        refusalState.withLock { $0 = refusal }
        return .failed
    }

    private static func der(_ certificate: Certificate) throws -> [UInt8] {
        try ParsedCertificate.summary(of: certificate).der.map { $0 }
    }
}
