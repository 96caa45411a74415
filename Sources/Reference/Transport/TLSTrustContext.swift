internal import CCurl
internal import CShims
internal import COpenSSL
import Foundation
import Logging
import NetworkCore

/// Everything a stack's TLS verification needs, fixed for the stack's life, and the judgement it applies.
///
/// Verification happens in two places so that a refusal holds on every connection, and no request byte
/// reaches a refused server (TRUST-3, TRUST-6):
/// - in the handshake of each new connection, through OpenSSL's certificate verification callback, over
///   the chain OpenSSL built; a connection that resumes a session (which OpenSSL does not verify again) is judged
///   before its first request from what its session's full handshake established (`TLSTrustContext+Resumption.swift`);
///   libcurl's own session cache stays off, since its key cannot see what this context installs;
/// - before each request on a reused connection, through libcurl's pre-request callback, over the evidence
///   kept from that connection's handshake (libcurl reuses connections without another handshake).
/// libcurl's own host-name check is off because the verification callback checks the name itself: one place
/// decides, and a handler may accept a mismatch on purpose. The callbacks are in `TLSCallbacks.swift`.
final class TLSTrustContext: Sendable {

    let roots: TrustStore
    let handler: (any AuthenticationChallengeHandler)?
    let verificationTime: Date?
    let logger: Logger
    /// Where handshakes and refusals are counted; `nil` when the stack reports no metrics.
    let metrics: StackMetrics?
    /// Standard validation in the handshake: OpenSSL's verification, the validation profile and the host name.
    let chainCheck: ChainCheck
    /// The validation profile the chain check applies.
    var profileCheck: ServerCertificateProfileCheck { chainCheck.profileCheck }
    /// What the revocation policy asks of stapled OCSP responses.
    let stapleCheck: StapledResponseCheck
    /// Whether the stack checks revocation at all.
    let checksRevocation: Bool
    /// The sessions new connections may resume; `nil` when every connection makes a full handshake.
    let sessions: TLSSessionCache?

    init(
        roots: TrustRoots, handler: (any AuthenticationChallengeHandler)?, verificationTime: Date?, logger: Logger,
        metrics: StackMetrics? = nil, profileCheck: ServerCertificateProfileCheck = ServerCertificateProfileCheck(profile: .strict),
        revocation: RevocationPolicy = .off, resumesSessions: Bool = false
    ) {
        let store = TrustStore(roots: roots)
        self.roots = store
        self.handler = handler
        self.verificationTime = verificationTime
        self.logger = logger
        self.metrics = metrics
        chainCheck = ChainCheck(
            profileCheck: profileCheck, revocationLists: HeldRevocationLists(revocation), verificationTime: verificationTime,
            privateAnchors: store.privateAnchors)
        stapleCheck = StapledResponseCheck(stapling: revocation.stapling, verificationTime: verificationTime)
        checksRevocation = !revocation.isOff
        // Required staples never come with a resumed handshake: every connection then makes a full one.
        sessions = resumesSessions && revocation.stapling != .required ? TLSSessionCache() : nil
    }

    /// Sets the TLS options of one transfer; `transfer` is its unretained `CurlTransfer`.
    ///
    /// Throws if the stack's roots could not be loaded or libcurl refused an option (a libcurl built on
    /// another TLS library has no `SSL_CTX_FUNCTION`): the transfer must then not start, since nobody would
    /// verify it.
    func configure(_ easy: CurlEasy, transfer: UnsafeMutableRawPointer) throws(TransportFailure) {
        if case .failure(let failure) = roots.store { throw failure }
        do {
            // Off for libcurl, on for OpenSSL (`sslContextCallback` sets SSL_VERIFY_PEER): the handshake still
            // fails whenever the verification callback refuses, but libcurl's own post-handshake look at the
            // leaf, which fails a chain whose issuer name is empty ("couldn't get X509-issuer name") whatever
            // validation decided, no longer overrules the verdict. Validation alone decides.
            try easy.set(CURLOPT_SSL_VERIFYPEER, 0)
            try easy.set(CURLOPT_SSL_VERIFYHOST, 0)  // checked by the verification callback (see above)
            try easy.set(CURLOPT_SSL_SESSIONID_CACHE, 0)
            // The roots come from the shared store, set on each connection's context; libcurl loads none itself
            // (Debian's libcurl would otherwise also trust CAPATH, whatever CAINFO says).
            try easy.set(CURLOPT_CAINFO, pointer: nil)
            try easy.set(CURLOPT_CAPATH, pointer: nil)
            try easy.setSSLContextFunction(sslContextCallback)
            try easy.set(CURLOPT_SSL_CTX_DATA, pointer: transfer)
            try easy.setSocketOptionFunction(socketOpenedCallback)
            try easy.set(CURLOPT_SOCKOPTDATA, pointer: transfer)
        } catch {
            throw error.transportFailure
        }
    }

    /// Judges a server from what a handshake established: the handler if there is one, else standard validation
    /// (``TrustRefusal/judging(_:by:checksRevocation:)``, as every stack of the package judges).
    func judge(_ evidence: TrustVerdict.Evidence, reused: Bool) -> TrustVerdict {
        let challenge = ServerTrustChallenge(
            host: evidence.host, port: evidence.port, servedChain: evidence.served, verifiedChain: evidence.verified,
            standardValidation: evidence.standard, verificationTime: verificationTime ?? Date(), isReusedConnection: reused,
            validationProfile: profileCheck.profile)
        let refusal = TrustRefusal.judging(challenge, by: handler, checksRevocation: checksRevocation)
        switch refusal {
        case nil where handler != nil:
            logger.debug("TLS server trusted with the handler", metadata: ["host": "\(evidence.host)", "reused": "\(reused)"])
        case .handler(let failure):
            logger.warning("TLS server refused by handler", metadata: ["host": "\(evidence.host)", "reason": "\(failure)"])
        case .chainNotTrusted(let failure):
            logger.warning("TLS chain validation failed", metadata: ["host": "\(evidence.host)", "reason": "\(failure)"])
        default:
            break
        }
        return TrustVerdict(evidence: evidence, refusal: refusal)
    }
}
