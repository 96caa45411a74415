internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore
import Pinning

// How a stack resumes TLS sessions without skipping its judgement (TRUST-17): which session a new connection may offer,
// and how a connection that resumed one is judged before its first request byte.
extension TLSTrustContext {

    /// The verification time now: the configured one, else the clock.
    var now: Date { verificationTime ?? Date() }

    /// When a verdict over a chain (a `STACK_OF(X509)`) holds as far as dates go: every certificate within its
    /// validity period and every held revocation list current; `nil` when some date cannot be read or no time fits.
    func replayablePeriod(of chain: OpaquePointer?) -> ClosedRange<Date>? {
        guard let chain, cshims_sk_X509_num(chain) > 0 else { return nil }
        var period = chainCheck.revocationLists.currentPeriod
        for index in 0..<cshims_sk_X509_num(chain) {
            guard let certificate = cshims_sk_X509_value(chain, index), let validity = ASN1Date.validity(ofCertificate: certificate)
            else { return nil }
            period = period?.intersection(validity)
        }
        return period
    }

    /// Whether a kept session may be offered for a new connection: its verdict can be replayed now, no staple is
    /// demanded that a resumed handshake would not bring, and the handler would present the same client certificate.
    func mayOffer(_ kept: KeptTrust, host: String, port: Int) -> Bool {
        guard kept.isReplayable(at: now), !(kept.leafDemandsStaple && stapleCheck.asksForStaple) else { return false }
        guard let exchange = kept.clientCertificate else { return true }
        return exchange.reuse(by: handler, host: host, port: port) == .sameAnswer
    }

    /// The verdict on a connection that resumed a session, from the trust kept with it: the handler asked again with
    /// the same evidence, or the kept standard validation replayed. `nil` when the kept verdict no longer holds at the
    /// verification time (a certificate or a list out of its period): the connection must then not be used, and a
    /// full handshake judge the server afresh.
    func judgeResumption(_ kept: KeptTrust) -> TrustVerdict? {
        guard kept.isReplayable(at: now) else { return nil }
        let verdict = judge(kept.evidence, reused: false)
        metrics?.handshakeJudged(verdict, session: .resumed)
        return verdict
    }
}
