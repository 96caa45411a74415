import Foundation
import NetworkCore

/// What the TLS callbacks decided about a server, as one value: the evidence (host, chains, standard
/// validation) and the decision. Made once per check, read by error mapping; nothing is unpacked from text.
struct TrustVerdict: Sendable {

    /// What a handshake established about a server; kept per connection for the re-check on reuse.
    struct Evidence: Sendable {
        let host: String
        let port: Int
        let served: [ServerCertificate]
        /// Empty unless the chain verified (a host-name mismatch keeps it: everything else was verified).
        let verified: [ServerCertificate]
        let standard: Result<Void, ChainValidationFailure>
    }

    /// Why a server was refused.
    enum Refusal: Sendable {
        /// Standard validation failed, and no handler overruled it.
        case chainNotTrusted(ChainValidationFailure)
        /// The handler refused.
        case handler(ServerTrustFailure)
        /// The server could not be judged at all (a certificate that cannot be encoded, a connection with no verdict).
        case notJudged(String)
    }

    let evidence: Evidence?
    /// `nil` when the server is trusted.
    let refusal: Refusal?

    var isAccepted: Bool { refusal == nil }

    /// The `URLError` code of a refusal: the date codes when the chain is out of date (also when a handler
    /// refused because of it), otherwise untrusted; a server that could not be judged failed the connection.
    var code: URLError.Code? {
        switch refusal {
        case nil: return nil
        case .notJudged: return .secureConnectionFailed
        case .chainNotTrusted(let failure): return Self.code(for: failure)
        case .handler(let failure):
            if let chain = failure.reason.chainValidationFailure { return Self.code(for: chain) }
            return .serverCertificateUntrusted
        }
    }

    private static func code(for failure: ChainValidationFailure) -> URLError.Code {
        switch failure.kind {
        case .expired: return .serverCertificateHasBadDate
        case .notYetValid: return .serverCertificateNotYetValid
        default: return .serverCertificateUntrusted
        }
    }

    /// The failure recorded in the `URLError`, with the reason attached.
    func transportFailure(code: Int, message: String) -> TransportFailure {
        switch refusal {
        case .chainNotTrusted(let failure):
            return TransportFailure(library: "libcurl", code: code, message: message, chainValidationFailure: failure)
        case .handler(let failure):
            return TransportFailure(library: "libcurl", code: code, message: message, serverTrustFailure: failure)
        case .notJudged(let why):
            return TransportFailure(library: "Reference", code: code, message: "\(why) (\(message))")
        case nil:
            return TransportFailure(library: "libcurl", code: code, message: message)
        }
    }
}
