/// A capability some cases need and a subject may lack; a case that needs a feature its subject declared
/// unsupported is SKIP, with the subject's reason, rather than FAIL.
public enum SubjectFeature: String, Sendable, Codable, Hashable, CaseIterable {
    /// The stack hands each server's certificate chain to an ``AuthenticationChallengeHandler`` inside the
    /// TLS handshake (needed for trust-handler and pinning cases).
    case serverTrustChallenge = "server-trust-challenge"
    /// The stack can trust the fixture roots instead of (or besides) the system store.
    case customTrustRoots = "custom-trust-roots"
    /// The stack can trust *only* the given roots, not the system store besides them.
    case exclusiveTrustRoots = "exclusive-trust-roots"
    /// The time certificates are checked against can be injected (TRUST-7).
    case verificationTime = "verification-time"
    /// Host names other than `localhost` can be pointed at the loopback server (libcurl's `CURLOPT_RESOLVE`).
    case resolveOverrides = "resolve-overrides"
    /// The stack can be given the largest response body it accepts, after `Content-Encoding` is decoded
    /// (``StackEnvironment/maximumResponseSize``; HTTP-15).
    case maximumResponseSize = "maximum-response-size"
    /// The stack can be given a limit on the whole of one attempt, however steadily bytes arrive
    /// (``StackEnvironment/resourceTimeout``; ERR-18).
    case resourceTimeout = "resource-timeout"
}
