/// A capability some cases need and a subject may lack; a case that needs a feature its subject declared
/// unsupported is SKIP, with the subject's reason, rather than FAIL.
///
/// A feature is a stable name (``rawValue``) with a constant for each feature the suite knows. Later versions
/// may add features: a `switch` over features needs a `default`. ``known`` lists this version's.
public struct SubjectFeature: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The feature's stable name (`server-trust-challenge`, …), as reports and `--list` spell it, encoded as a plain
    /// JSON string.
    public let rawValue: String

    /// The feature with this name, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The stack hands each server's certificate chain to an `AuthenticationChallengeHandler` at all
    /// (needed by every trust-handler and pinning case). The finer features below say how well.
    public static let serverTrustChallenge = SubjectFeature(rawValue: "server-trust-challenge")
    /// The chain reaches the handler inside the handshake, before any request byte: a refusal leaks nothing
    /// (TRUST-3). A hook that runs after the request was written lacks it.
    public static let challengeBeforeRequest = SubjectFeature(rawValue: "challenge-before-request")
    /// The handler can overrule standard validation: `useCredential` trusts a chain the TLS library refused
    /// (TRUST-5). A hook that can only refuse what the library accepted lacks it.
    public static let challengeOverridesValidation = SubjectFeature(rawValue: "challenge-overrides-validation")
    /// A reused connection is checked again before each request (TRUST-6). A stack that judges a connection
    /// once, in its handshake, as URLSession does, lacks it.
    public static let reusedConnectionRecheck = SubjectFeature(rawValue: "reused-connection-recheck")
    /// The challenge carries the verified chain (to the anchor) and standard validation's failure (TRUST-4),
    /// which pinning handlers need. A hook that sees only the served certificates lacks it.
    public static let challengeCarriesChains = SubjectFeature(rawValue: "challenge-carries-chains")
    /// A certificate refused for its dates fails with `serverCertificateHasBadDate` or
    /// `serverCertificateNotYetValid` (ERR-13), not the generic untrusted code. Some TLS libraries cannot tell.
    public static let certificateDateCodes = SubjectFeature(rawValue: "certificate-date-codes")
    /// The stack can trust the fixture roots instead of (or besides) the system store.
    public static let customTrustRoots = SubjectFeature(rawValue: "custom-trust-roots")
    /// The stack can trust *only* the given roots, not the system store besides them.
    public static let exclusiveTrustRoots = SubjectFeature(rawValue: "exclusive-trust-roots")
    /// The time certificates are checked against can be injected (TRUST-7).
    public static let verificationTime = SubjectFeature(rawValue: "verification-time")
    /// Host names other than `localhost` can be pointed at the loopback server (libcurl's `CURLOPT_RESOLVE`).
    public static let resolveOverrides = SubjectFeature(rawValue: "resolve-overrides")
    /// The stack's default validation applies the strict validation profile (`docs/validation.md`, TRUST-8): it refuses
    /// chains OpenSSL's standard verification accepts but RFC 5280 forbids, and, when they end at a public root
    /// (``StackEnvironment/trustedRootsArePublic``), what the Baseline Requirements forbid.
    public static let strictValidationProfile = SubjectFeature(rawValue: "strict-validation-profile")
    /// The stack can be given the largest response body it accepts, after `Content-Encoding` is decoded
    /// (``StackEnvironment/maximumResponseSize``; HTTP-15).
    public static let maximumResponseSize = SubjectFeature(rawValue: "maximum-response-size")
    /// The stack can be given a limit on the whole of one attempt, however steadily bytes arrive
    /// (``StackEnvironment/resourceTimeout``; ERR-18).
    public static let resourceTimeout = SubjectFeature(rawValue: "resource-timeout")
    /// The stack speaks HTTP/2 over TLS to a server that selects `h2` in ALPN (HTTP-17). A stack that offers only
    /// HTTP/1.1 lacks it: the `.h2` variants and the HTTP/2 cases are then SKIP.
    public static let http2 = SubjectFeature(rawValue: "http2")
    /// The stack's challenge handler is asked for an identity when a server asks for a client certificate, and
    /// the stack presents the identity it answers (TRUST-10). A stack that cannot present one lacks it: the cases
    /// that need a handler's answer are then SKIP, and so are the two whose refusal only such a stack can recognise
    /// (a TLS 1.2 handshake_failure after the server asked, and a request after the handshake, which a server can
    /// make only of a client that offered post-handshake authentication).
    public static let clientCertificates = SubjectFeature(rawValue: "client-certificates")
    /// The client-certificate challenge names the certificate authorities the server said it accepts (TRUST-10). A
    /// stack whose TLS library does not pass the names on (swift-nio-ssl) lacks it.
    public static let clientCertificateIssuers = SubjectFeature(rawValue: "client-certificate-issuers")
    /// The stack offers TLS 1.3 post-handshake authentication (RFC 8446 §4.6.2), so that a server may ask for a client
    /// certificate after the handshake, and answers such a request from its handler as it answers one in the
    /// handshake. The cases whose server asks only then need it besides ``clientCertificates``: a TLS library without
    /// post-handshake authentication (BoringSSL) lacks it.
    public static let postHandshakeClientCertificates = SubjectFeature(rawValue: "post-handshake-client-certificates")

    /// The stack checks revocation as ``StackEnvironment/revocation`` says, against the revocation lists it is
    /// given, at the verification time. Every revocation case needs it; those about stapled OCSP responses need
    /// ``stapledOCSP`` as well.
    public static let revocation = SubjectFeature(rawValue: "revocation")

    /// The stack asks a server for a stapled OCSP response (RFC 6066 `status_request`) and judges it, and a
    /// must-staple leaf's demand for one (RFC 7633), as ``StackEnvironment/revocation``'s stapling says. A stack whose
    /// TLS library cannot ask for a staple lacks it.
    public static let stapledOCSP = SubjectFeature(rawValue: "stapled-ocsp")

    /// When the path the TLS library builds from the served certificates fails, the stack tries the other paths they
    /// and the trust store allow (a cross-signed intermediate served first, say), up to 8 certificates above the leaf,
    /// and any trusted certificate, an intermediate too, ends a path (TRUST-16). RFC 5280 does not require the
    /// search of a client: a stack that verifies one path to a self-signed root only lacks it.
    public static let pathBuilding = SubjectFeature(rawValue: "path-building")

    /// The stack can be given the deepest verified chain it accepts (``StackEnvironment/maximumChainDepth``): a
    /// deeper one is refused as `chain-too-deep`.
    public static let maximumChainDepth = SubjectFeature(rawValue: "maximum-chain-depth")

    /// The stack can be given the most redirects in a row it follows (``StackEnvironment/maximumRedirects``): the
    /// next one fails the fetch with `httpTooManyRedirects` (HTTP-24).
    public static let redirectLimit = SubjectFeature(rawValue: "redirect-limit")

    /// The stack resumes TLS sessions: a new connection to a server offers the session an earlier connection to it made
    /// (TRUST-17). The cases that need a resumption to happen, to judge what the stack does with it, require it.
    public static let sessionResumption = SubjectFeature(rawValue: "session-resumption")

    /// The features this version of the suite knows, in the order they are documented.
    public static let known: [SubjectFeature] = [
        .serverTrustChallenge, .challengeBeforeRequest, .challengeOverridesValidation, .reusedConnectionRecheck, .challengeCarriesChains,
        .certificateDateCodes, .customTrustRoots, .exclusiveTrustRoots, .verificationTime, .resolveOverrides, .strictValidationProfile,
        .maximumResponseSize, .resourceTimeout, .http2, .clientCertificates, .clientCertificateIssuers, .postHandshakeClientCertificates,
        .revocation, .stapledOCSP, .pathBuilding, .maximumChainDepth, .redirectLimit, .sessionResumption,
    ]

    /// The stable name.
    public var description: String { rawValue }
}
