import Foundation

extension MockServer {
    /// How the server speaks TLS: which certificates it serves, per SNI name, and which protocol versions.
    public struct TLS: Sendable {
        /// A certificate chain and its private key, as PEM files.
        ///
        /// The chain is served **exactly** as listed in ``chainFile``: the first certificate is the leaf, and
        /// every following one is sent in file order, even when the list is wrong or incomplete. That is the
        /// point: tests of broken chains need the server to send what they wrote.
        public struct Identity: Sendable, Hashable {
            /// A PEM file: the leaf certificate first, then whatever should follow it on the wire.
            public var chainFile: String
            /// A PEM file with the leaf's private key.
            public var keyFile: String
            /// A DER OCSP response stapled to every handshake whose client asks for one (RFC 6066
            /// `status_request`), sent as it is, whatever it says; `nil` (the default) staples nothing.
            public var stapledOCSPResponseFile: String?
            /// Creates an identity from two PEM files, and optionally an OCSP response to staple.
            public init(chainFile: String, keyFile: String, stapledOCSPResponseFile: String? = nil) {
                self.chainFile = chainFile
                self.keyFile = keyFile
                self.stapledOCSPResponseFile = stapledOCSPResponseFile
            }
        }

        /// A TLS protocol version.
        public enum Version: Sendable, Hashable, Comparable {
            /// TLS 1.0 (enabling it lowers OpenSSL's security level to 0).
            case tls10
            /// TLS 1.1 (enabling it lowers OpenSSL's security level to 0).
            case tls11
            /// TLS 1.2.
            case tls12
            /// TLS 1.3.
            case tls13
        }

        /// The HTTP versions the server offers in ALPN.
        ///
        /// Over HTTP/2 the same scripted responses, faults and journal apply, each request on its own stream.
        public struct HTTPVersions: Sendable, Hashable, CustomStringConvertible {
            enum Base: Sendable, Hashable { case http1, http2, both }
            let base: Base
            private init(_ base: Base) { self.base = base }

            /// HTTP/1.1 only: `http/1.1` is selected when the client offers it, and a client offering only other
            /// protocols gets no ALPN answer (as a server that predates ALPN). The default.
            public static let http1Only = HTTPVersions(.http1)
            /// HTTP/2 only: a client that does not offer `h2` fails the handshake with a `no_application_protocol`
            /// alert, and one that offers no ALPN at all is closed after its handshake.
            public static let http2Only = HTTPVersions(.http2)
            /// Both, preferring HTTP/2 when the client offers it, as nginx with `http2 on` does.
            public static let http1AndHTTP2 = HTTPVersions(.both)

            /// `http1Only`, `http2Only` or `http1AndHTTP2`.
            public var description: String {
                switch base {
                case .http1: "http1Only"
                case .http2: "http2Only"
                case .both: "http1AndHTTP2"
                }
            }
        }

        /// The identity served when the client sends no SNI name, or one not in ``sniIdentities``.
        public var identity: Identity
        /// Identities selected by the SNI name the client sends (exact, case-insensitive match).
        public var sniIdentities: [String: Identity]
        /// The lowest version the server accepts.
        public var minimumVersion: Version
        /// The highest version the server accepts.
        public var maximumVersion: Version
        /// Whether clients may resume sessions (session cache and tickets). Off by default, so every
        /// connection runs a full handshake and certificate verification.
        public var sessionResumption: Bool
        /// How sessions are resumed when ``sessionResumption`` is on: tickets per connection, their lifetime, shared
        /// ticket keys, or every offer turned down. Ignored when it is off.
        public var resumption = SessionResumption()
        /// OpenSSL's cipher list for TLS 1.2 and below (`"ECDHE-ECDSA-AES128-GCM-SHA256"`); `nil` keeps OpenSSL's default.
        public var cipherList: String?
        /// OpenSSL's TLS 1.3 cipher suites (`"TLS_AES_256_GCM_SHA384"`); `nil` keeps OpenSSL's default.
        public var cipherSuites: String?
        /// Whether the server may send a chain whose keys OpenSSL's default security level refuses (a P-192 CA,
        /// an RSA key under 2048 bits), so that clients can be tested on refusing it. Off by default: such a
        /// chain then fails at ``MockServer/init(tls:bindAddress:port:recordsRequests:maximumRequestBodySize:)``.
        public var servesWeakChains: Bool = false
        /// The HTTP versions offered in ALPN (default ``HTTPVersions/http1Only``, so a test that did not ask for
        /// HTTP/2 sees HTTP/1.1 framing whatever its client offers).
        public var httpVersions: HTTPVersions = .http1Only
        /// Whether the server asks the client for a certificate (default ``ClientAuthentication/none``).
        public var clientAuthentication: ClientAuthentication = .none
        /// The time client certificates are checked against; `nil` (the default) is the current time.
        public var clientVerificationTime: Date?

        /// Creates a TLS configuration.
        ///
        /// - Parameters:
        ///   - identity: The default certificate chain and key.
        ///   - sniIdentities: Other identities by SNI name.
        ///   - minimumVersion: The lowest version accepted (default TLS 1.2).
        ///   - maximumVersion: The highest version accepted (default TLS 1.3).
        ///   - sessionResumption: Allow session resumption (default off).
        ///   - cipherList: Limit the TLS 1.2 ciphers (OpenSSL cipher-list syntax).
        ///   - cipherSuites: Limit the TLS 1.3 cipher suites (OpenSSL syntax).
        ///   - httpVersions: The HTTP versions offered in ALPN (default HTTP/1.1 only).
        public init(
            identity: Identity,
            sniIdentities: [String: Identity] = [:],
            minimumVersion: Version = .tls12,
            maximumVersion: Version = .tls13,
            sessionResumption: Bool = false,
            cipherList: String? = nil,
            cipherSuites: String? = nil,
            httpVersions: HTTPVersions = .http1Only
        ) {
            self.httpVersions = httpVersions
            self.cipherList = cipherList
            self.cipherSuites = cipherSuites
            self.identity = identity
            self.sniIdentities = sniIdentities
            self.minimumVersion = minimumVersion
            self.maximumVersion = maximumVersion
            self.sessionResumption = sessionResumption
        }
    }
}
