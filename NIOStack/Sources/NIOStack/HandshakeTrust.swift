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
        let challenge = ServerTrustChallenge(
            host: host, port: port, servedChain: parsed.map(\.summary), verifiedChain: verified, standardValidation: outcome.result,
            verificationTime: time, isReusedConnection: false)
        switch handler?.handle(challenge) ?? .performDefaultHandling {
        case .useCredential:
            return accept(verified: outcome.verified, served: served)
        case .performDefaultHandling:
            if case .failure(let failure) = outcome.result { return refuse(.chainNotTrusted(failure)) }
            return accept(verified: outcome.verified, served: served)
        case .cancelAuthenticationChallenge(let failure):
            return refuse(.handler(failure))
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
