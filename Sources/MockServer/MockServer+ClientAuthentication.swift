import Foundation

extension MockServer.TLS {
    /// Whether the server asks the client for a certificate, and which certificates it then trusts.
    ///
    /// The server checks a presented chain with OpenSSL's client verification: it must lead to a root of the CA
    /// file, be valid at ``MockServer/TLS/clientVerificationTime`` (or now), and its leaf must allow client
    /// authentication (extended key usage `clientAuth`, or none). The CA file's subjects are also sent to the
    /// client as the names of the acceptable CAs. ``ConnectionRecord/clientCertificate`` records what happened.
    public struct ClientAuthentication: Sendable, Hashable, CustomStringConvertible {
        enum Base: Sendable, Hashable {
            case none
            case optional(caFile: String)
            case required(caFile: String)
            case postHandshake(caFile: String)
        }

        let base: Base
        private init(_ base: Base) { self.base = base }

        /// The server never asks for a certificate. The default.
        public static let none = ClientAuthentication(.none)
        /// The server asks in the handshake and goes on without a certificate when the client sends none, but refuses
        /// one that does not verify against the roots of `caFile` (PEM).
        public static func optional(trusting caFile: String) -> ClientAuthentication { ClientAuthentication(.optional(caFile: caFile)) }
        /// The server asks in the handshake and refuses a client that sends no certificate, or one that does not
        /// verify against the roots of `caFile` (PEM). Under TLS 1.3 the refusal reaches the client only after its
        /// side of the handshake has finished, so a client may already have written its request.
        public static func required(trusting caFile: String) -> ClientAuthentication { ClientAuthentication(.required(caFile: caFile)) }
        /// The server completes the handshake without asking, reads the first request's head, then asks (a TLS 1.3
        /// post-handshake CertificateRequest, RFC 8446 §4.6.2) and answers only once the client's certificate
        /// verified against the roots of `caFile` (PEM); it refuses a client that sends none, or one that does not
        /// verify, with the alert and no response. Later requests on the connection are not asked again.
        ///
        /// The client must offer post-handshake authentication (libcurl does; `openssl s_client` with
        /// `-enable_pha`; Python with `post_handshake_auth`): a client that does not is refused by closing the
        /// connection without an answer. TLS 1.2 and HTTP/2 have no such request (HTTP/2 forbids it, RFC 9113
        /// §9.2.3), so ``MockServer/init(tls:bindAddress:port:recordsRequests:maximumRequestBodySize:)`` refuses this mode with ``MockServerError/Code/tlsSetupFailed``
        /// unless ``MockServer/TLS/minimumVersion`` is TLS 1.3 and ``MockServer/TLS/httpVersions`` is
        /// ``MockServer/TLS/HTTPVersions/http1Only``.
        public static func postHandshake(trusting caFile: String) -> ClientAuthentication {
            ClientAuthentication(.postHandshake(caFile: caFile))
        }

        /// The CA file, or `nil` for ``none``.
        var caFile: String? {
            switch base {
            case .none: nil
            case .optional(let file), .required(let file), .postHandshake(let file): file
            }
        }

        /// Whether the server asks after the handshake, once a request head was read, rather than in it.
        var asksAfterHandshake: Bool {
            if case .postHandshake = base { return true }
            return false
        }

        /// `none`, `optional(FILE)`, `required(FILE)` or `postHandshake(FILE)`.
        public var description: String {
            switch base {
            case .none: "none"
            case .optional(let file): "optional(\(file))"
            case .required(let file): "required(\(file))"
            case .postHandshake(let file): "postHandshake(\(file))"
            }
        }
    }
}

extension ConnectionRecord {
    /// What became of the server's request for a client certificate on one connection.
    public struct ClientCertificate: Sendable, Hashable {
        /// The subjects of the certificates the client presented, leaf first (`CN=…` in RFC 2253 form); empty when it
        /// presented none.
        public let presentedSubjects: [String]
        /// OpenSSL's verification result for the presented chain: 0 (`X509_V_OK`) when it verified or none was
        /// presented, else an `X509_V_ERR_*` code (10 expired, 20 unknown issuer, 26 unsuitable purpose, …).
        public let verifyResult: Int
        /// The text of ``verifyResult`` (`ok`, `certificate has expired`, …).
        public let verifyReason: String
        /// The TLS alert the server sent, if it sent one, as RFC 8446 names it (`certificate_required`, `unknown_ca`,
        /// `certificate_expired`, …).
        public internal(set) var alertSent: String?
        /// Whether the server asked after the handshake (``MockServer/TLS/ClientAuthentication/postHandshake(trusting:)``),
        /// once the first request's head was read; `false` when it asked in the handshake.
        public internal(set) var requestedAfterHandshake: Bool = false
    }
}
