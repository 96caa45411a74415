import Foundation
import NetworkCore

/// What a full handshake established about a server, kept with the TLS session it made so that a connection resuming
/// that session is judged as a new one is (TRUST-17): OpenSSL calls no verification callback on a resumed session.
///
/// The verdict of standard validation is replayed, not recomputed, and only within `replayablePeriod`: the roots, the
/// profile and the held revocation lists are the stack's, fixed for its life and the same for every session it keeps,
/// so what can change a verdict reached over the same chain is the verification time, against the certificates' and
/// the lists' dates. The handler is asked again with the kept evidence, as on any new connection.
struct KeptTrust: Sendable {
    /// The handshake's evidence: host, served and verified chains, standard validation's result.
    let evidence: TrustVerdict.Evidence
    /// When the kept verdict of standard validation still holds: every certificate it judged is within its validity
    /// period and every held list is current. `nil` when no such time exists (the session is then never offered).
    let replayablePeriod: ClosedRange<Date>?
    /// What the client answered when the server asked it for a certificate during the full handshake, if it asked.
    let clientCertificate: ClientCertificateExchange?
    /// Whether the leaf demands a stapled OCSP response (RFC 7633), which a resumed handshake does not bring.
    let leafDemandsStaple: Bool

    /// Whether the kept verdict may be replayed at a verification time.
    func isReplayable(at time: Date) -> Bool { replayablePeriod?.contains(time) ?? false }
}
