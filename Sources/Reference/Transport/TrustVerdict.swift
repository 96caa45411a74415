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

    let evidence: Evidence?
    /// `nil` when the server is trusted.
    let refusal: TrustRefusal?

    var isAccepted: Bool { refusal == nil }

    /// The `URLError` code of a refusal (``TrustRefusal/code``).
    var code: URLError.Code? { refusal?.code }

    /// The failure recorded in the `URLError`, with the reason attached.
    func transportFailure(code: Int, message: String) -> TransportFailure {
        guard let refusal else { return TransportFailure(library: "libcurl", code: code, message: message) }
        // What libcurl's handshake failed with; a server the stack could not judge is the stack's own failure.
        if case .notJudged = refusal { return refusal.transportFailure(library: "Reference", code: code, message: message) }
        return refusal.transportFailure(library: "libcurl", code: code, message: message)
    }
}
