import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a stack refused a server, and the one judgement that decides it: what every stack of this package applies to
/// the evidence of a handshake, and again before each request on a reused connection (TRUST-3, TRUST-6).
public enum TrustRefusal: Sendable {
    /// Standard validation failed, and no handler overruled it.
    case chainNotTrusted(ChainValidationFailure)
    /// The handler refused.
    case handler(ServerTrustFailure)
    /// The server could not be judged at all (a certificate that cannot be read, a connection with no verdict).
    case notJudged(String)

    /// The refusal of a server by `handler` or, without one or when it asks for default handling, by standard
    /// validation; `nil` when the server is trusted.
    ///
    /// A revocation failure is not the handler's to waive (a pin says which key a server holds, not that it is still
    /// good), and when the stack checks revocation, a handler cannot trust a chain that did not verify, along which
    /// revocation could not be checked.
    public static func judging(
        _ challenge: ServerTrustChallenge, by handler: (any AuthenticationChallengeHandler)?, checksRevocation: Bool
    ) -> TrustRefusal? {
        let standard: TrustRefusal? =
            if case .failure(let failure) = challenge.standardValidation { .chainNotTrusted(failure) } else { nil }
        if case .failure(let failure) = challenge.standardValidation, failure.kind.concernsRevocation { return standard }
        switch handler?.handle(challenge) ?? .performDefaultHandling {
        case .performDefaultHandling:
            return standard
        case .cancelAuthenticationChallenge(let failure):
            return .handler(failure)
        case .useCredential where checksRevocation && challenge.verifiedChain.isEmpty:
            return .chainNotTrusted(
                ChainValidationFailure(
                    kind: .revocationUnavailable, code: 1,  // X509_V_ERR_UNSPECIFIED: OpenSSL has no code for it
                    reason: "revocation cannot be checked on a chain that did not verify", depth: 0))
        case .useCredential:
            return nil
        }
    }

    /// The `URLError` code of the refusal: the date codes when the chain is out of date (also when a handler refused
    /// because of it), otherwise untrusted; a server that could not be judged failed the connection.
    public var code: URLError.Code {
        switch self {
        case .notJudged: .secureConnectionFailed
        case .chainNotTrusted(let failure): Self.code(for: failure)
        case .handler(let failure): failure.reason.chainValidationFailure.map(Self.code(for:)) ?? .serverCertificateUntrusted
        }
    }

    /// The failure a `URLError` of the refusal carries: the chain's or the handler's failure attached, or why the
    /// server could not be judged before `message`.
    public func transportFailure(library: String, code: Int, message: String) -> TransportFailure {
        switch self {
        case .chainNotTrusted(let chain):
            TransportFailure(library: library, code: code, message: message, chainValidationFailure: chain)
        case .handler(let trust):
            TransportFailure(library: library, code: code, message: message, serverTrustFailure: trust)
        case .notJudged(let why):
            TransportFailure(library: library, code: code, message: "\(why) (\(message))")
        }
    }

    private static func code(for failure: ChainValidationFailure) -> URLError.Code {
        switch failure.kind {
        case .expired: .serverCertificateHasBadDate
        case .notYetValid: .serverCertificateNotYetValid
        default: .serverCertificateUntrusted
        }
    }
}
