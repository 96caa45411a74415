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

        /// The CA file, or `nil` for ``none``.
        var caFile: String? {
            switch base {
            case .none: nil
            case .optional(let file), .required(let file): file
            }
        }

        /// `none`, `optional(FILE)` or `required(FILE)`.
        public var description: String {
            switch base {
            case .none: "none"
            case .optional(let file): "optional(\(file))"
            case .required(let file): "required(\(file))"
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
    }
}
