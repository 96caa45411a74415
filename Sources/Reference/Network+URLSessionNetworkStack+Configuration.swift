import Dispatch
import Foundation
import Logging

extension Network.URLSessionNetworkStack {

    /// How a stack connects: whom it trusts, what time certificates are checked against, where callbacks
    /// run, where it logs and where it reports metrics.
    public struct Configuration: Sendable {

        /// The roots server chains must lead to. The system's trust store by default.
        public var trustRoots: TrustRoots = .system

        /// The time certificates are checked against; `nil` (the default) is the current time.
        ///
        /// Tests set it to check expired and not-yet-valid certificates without waiting for the calendar.
        public var verificationTime: Date?

        /// Where completions run. `nil` (the default) runs them on the stack's transport thread, which saves a
        /// thread hop per fetch: completions must then return quickly and must not block.
        public var callbackQueue: DispatchQueue?

        /// Where the stack logs each request (method, URL, status, timing), retry decisions and TLS outcomes.
        /// Silent by default.
        public var logger: Logger = Logger(label: "Reference.URLSessionNetworkStack", factory: { _ in SwiftLogNoOpLogHandler() })

        /// Which redirects are followed, and how many in a row. By default up to 16, as `URLSession` does.
        ///
        /// Only GET, HEAD and POST requests follow (a 303 turns a POST into a GET); other methods (PUT, PATCH,
        /// DELETE, …) never do: their 3xx response is returned, as `Network/URLSessionError/http(_:_:_:)`,
        /// rather than replaying the method at another location. A redirect from HTTPS never goes to plain HTTP.
        public var redirects: RedirectPolicy = .default

        /// Addresses to use for given host names and ports instead of asking DNS.
        ///
        /// The request URL keeps its host name, so TLS sends it as SNI and certificates are checked (and
        /// pinned) against it: tests reach a local server under any name this way. Empty by default.
        public var resolveOverrides: [ResolveOverride] = []

        /// The largest response body accepted, in bytes, after any `Content-Encoding` is decoded; a larger one
        /// fails the fetch with `URLError.dataLengthExceedsMaximum` as soon as it is announced or received.
        ///
        /// 100 MiB by default, so that a small compressed body cannot expand into gigabytes of memory. `nil`
        /// accepts any size, as `URLSession` does.
        public var maximumResponseSize: Int? = TransportDefaults.maximumResponseSize

        /// The longest one attempt may take, from its start to its last body byte, however steadily bytes
        /// arrive (`URLRequest.timeoutInterval` only bounds the wait for the next byte). A longer attempt fails
        /// with `URLError.timedOut`. Seven days by default, as `URLSessionConfiguration.timeoutIntervalForResource`.
        public var timeoutIntervalForResource: TimeInterval = TransportDefaults.timeoutIntervalForResource

        /// The rules applied to a server's chain beyond standard validation; `ValidationProfile/strict` by
        /// default. A refusal by the profile is a standard-validation failure: the handler sees it in
        /// `ServerTrustChallenge/standardValidation`, and `.performDefaultHandling` refuses the server.
        public var validationProfile: ValidationProfile = .strict

        /// The greatest depth a verified chain may have (the leaf is at depth 0, its trust anchor at the
        /// greatest depth); a deeper chain fails with `ChainValidationFailure/Kind/chainTooDeep`. `nil` (the
        /// default) sets no limit beyond OpenSSL's own.
        public var maximumChainDepth: Int?

        /// Whether the stack checks that a server's certificates are not revoked: against revocation lists it
        /// holds, and the OCSP response a server staples. `RevocationPolicy.off` by default; nothing is ever
        /// fetched. A revocation failure refuses the server whatever the handler says.
        public var revocation: RevocationPolicy = .off

        /// The most connections open to one host and port at a time, as
        /// `URLSessionConfiguration.httpMaximumConnectionsPerHost`; fetches beyond it wait for a connection.
        /// `nil` (the default) or a value below 1 sets no limit.
        public var maximumConnectionsPerHost: Int?

        /// Whether new connections resume the TLS sessions of earlier ones (TLS 1.3 tickets, TLS 1.2 session IDs and
        /// tickets; never 0-RTT data): on by default, which saves the certificate's transfer and the verification of
        /// its chain.
        ///
        /// A resumed connection is judged before its first request byte as a new one is: the chain its session's full
        /// handshake verified is judged again at the verification time (kept verdict replayed while every certificate
        /// and held revocation list is in its validity period, else a full handshake), and the handler is asked again
        /// with the same evidence. Sessions are kept by this stack only, at most 64 hosts. A stack that requires stapled
        /// OCSP responses, or that checks staples and meets a leaf that demands one, always makes a full handshake, as does a session whose client
        /// certificate the handler would no longer present.
        public var resumesTLSSessions = true

        /// The HTTP versions offered to servers over TLS; `http2Preferred` by default. Over
        /// HTTP/2 each fetch still has a connection of its own at a time (streams are not multiplexed), and the
        /// same trust checks, pins, retries and error codes apply as over HTTP/1.1.
        public var httpVersions: HTTPVersions = .http2Preferred

        /// The stack's counters and timers (swift-metrics): off unless a metrics factory is bootstrapped before the
        /// stack is created; see ``MetricsConfiguration``.
        public var metrics = MetricsConfiguration()

        /// Creates the default configuration.
        public init() {}
    }
}
