/// A capability some cases need and a subject may lack; a case that needs a feature its subject declared
/// unsupported is SKIP, with the subject's reason, rather than FAIL.
public enum SubjectFeature: String, Sendable, Codable, Hashable, CaseIterable {
    /// The stack hands each server's certificate chain to an `AuthenticationChallengeHandler` at all
    /// (needed by every trust-handler and pinning case). The finer features below say how well.
    case serverTrustChallenge = "server-trust-challenge"
    /// The chain reaches the handler inside the handshake, before any request byte: a refusal leaks nothing
    /// (TRUST-3). A hook that runs after the request was written lacks it.
    case challengeBeforeRequest = "challenge-before-request"
    /// The handler can overrule standard validation: `useCredential` trusts a chain the TLS library refused
    /// (TRUST-5). A hook that can only refuse what the library accepted lacks it.
    case challengeOverridesValidation = "challenge-overrides-validation"
    /// A reused connection is checked again before each request (TRUST-6). A stack that judges a connection
    /// once, in its handshake, as URLSession does, lacks it.
    case reusedConnectionRecheck = "reused-connection-recheck"
    /// The challenge carries the verified chain (to the anchor) and standard validation's failure (TRUST-4),
    /// which pinning handlers need. A hook that sees only the served certificates lacks it.
    case challengeCarriesChains = "challenge-carries-chains"
    /// A certificate refused for its dates fails with `serverCertificateHasBadDate` or
    /// `serverCertificateNotYetValid` (ERR-13), not the generic untrusted code. Some TLS libraries cannot tell.
    case certificateDateCodes = "certificate-date-codes"
    /// The stack can trust the fixture roots instead of (or besides) the system store.
    case customTrustRoots = "custom-trust-roots"
    /// The stack can trust *only* the given roots, not the system store besides them.
    case exclusiveTrustRoots = "exclusive-trust-roots"
    /// The time certificates are checked against can be injected (TRUST-7).
    case verificationTime = "verification-time"
    /// Host names other than `localhost` can be pointed at the loopback server (libcurl's `CURLOPT_RESOLVE`).
    case resolveOverrides = "resolve-overrides"
    /// The stack's default validation applies the strict validation profile (`docs/validation.md`): it refuses
    /// chains OpenSSL's standard verification accepts but RFC 5280 or the Baseline Requirements forbid.
    case strictValidationProfile = "strict-validation-profile"
    /// The stack can be given the largest response body it accepts, after `Content-Encoding` is decoded
    /// (``StackEnvironment/maximumResponseSize``; HTTP-15).
    case maximumResponseSize = "maximum-response-size"
    /// The stack can be given a limit on the whole of one attempt, however steadily bytes arrive
    /// (``StackEnvironment/resourceTimeout``; ERR-18).
    case resourceTimeout = "resource-timeout"
    /// The stack speaks HTTP/2 over TLS to a server that selects `h2` in ALPN (HTTP-17). A stack that offers only
    /// HTTP/1.1 lacks it: the `.h2` variants and the HTTP/2 cases are then SKIP.
    case http2 = "http2"
    /// The stack's challenge handler is asked for an identity when a server asks for a client certificate, and
    /// the stack presents the identity it answers (TRUST-10). A stack that cannot present one lacks it: the cases
    /// that need a handler's answer are then SKIP.
    case clientCertificates = "client-certificates"
}
