import Foundation
import NetworkCore
import SwiftASN1
import X509

extension NIONetworkStack {

    /// How a ``NIONetworkStack`` connects and what it trusts.
    public struct Configuration: Sendable {

        /// The roots standard validation trusts.
        public enum TrustRoots: Sendable {
            /// The system bundle (`/etc/ssl/certs/ca-certificates.crt`), read when the stack is made.
            case system
            /// Only these certificates, as roots a user added (a private PKI): a chain to any other root is refused, and
            /// the validation profile holds chains to them to its rules for private roots.
            case only([Certificate])
            /// Only these certificates, named public roots as the system's are: the validation profile holds chains to
            /// them to every rule of its public set, the Baseline Requirements' too.
            case onlyPublic([Certificate])

            /// Only the certificates in these PEM files (each may hold several).
            ///
            /// - Parameter public: Whether to judge chains to them as chains to public roots (``onlyPublic(_:)``).
            /// - Throws: the file's read error, or swift-certificates' parse error, naming nothing but the cause.
            public static func only(pemFiles: [String], public: Bool = false) throws -> TrustRoots {
                let certificates = try pemFiles.flatMap { try Self.certificates(inPEMFile: $0) }
                return `public` ? .onlyPublic(certificates) : .only(certificates)
            }

            static func certificates(inPEMFile path: String) throws -> [Certificate] {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                return try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
            }

            /// Whether chains to these roots are judged as chains to public roots.
            var isPublic: Bool {
                if case .only = self { return false }
                return true
            }

            var certificates: [Certificate] {
                switch self {
                case .only(let certificates), .onlyPublic(let certificates): return certificates
                case .system: return (try? Self.certificates(inPEMFile: "/etc/ssl/certs/ca-certificates.crt")) ?? []
                }
            }
        }

        /// A host name and port sent to another address instead of asking DNS (NetworkCore's `HostOverride`).
        public typealias ResolveOverride = HostOverride

        /// The roots standard validation trusts (the system bundle by default).
        public var trustRoots: TrustRoots = .system

        /// The rules beyond RFC 5280's path validation that a server's chain must meet (the project's strict profile by
        /// default: the Baseline Requirements' rules for chains to public roots, RFC 5280's and the security rules for
        /// every chain). `x509-strict` and `inclusive-not-after` are OpenSSL's: swift-certificates' own RFC 5280 policy
        /// stands in for them.
        public var validationProfile: ValidationProfile = .strict

        /// The most certificates a verified chain may have above the leaf, when the profile applies
        /// `maximum-chain-depth`; `nil` sets no limit of the stack's own.
        public var maximumChainDepth: Int?

        /// Whether the stack checks that a server's certificates are not revoked, against the revocation lists it
        /// holds (`RevocationPolicy.revocationLists`, with the policy's coverage), at the verification time; nothing is
        /// fetched. A revocation failure refuses the server whatever the handler says. swift-nio-ssl cannot ask a server
        /// for a stapled OCSP response, so none is checked: a policy that requires one refuses every server, and a
        /// must-staple leaf is refused under `.checkedWhenStapled`.
        public var revocation: RevocationPolicy = .off

        /// The time certificates are checked against; `nil` is the time of each handshake.
        public var verificationTime: Date?

        /// The largest response body accepted, in bytes; a larger one fails with `dataLengthExceedsMaximum`.
        public var maximumResponseSize: Int = TransportDefaults.maximumResponseSize

        /// The longest one attempt may take, however steadily bytes arrive (seven days, as URLSession has it).
        public var timeoutIntervalForResource: TimeInterval = TransportDefaults.timeoutIntervalForResource

        /// Which redirects are followed, and how many in a row (NetworkCore's `RedirectPolicy`): up to 16 by
        /// default, as `URLSession` and the reference stack.
        public var redirects: RedirectPolicy = .default

        /// Host names sent to another address.
        public var resolveOverrides: [ResolveOverride] = []

        /// The HTTP versions offered to servers over TLS (NetworkCore's `HTTPVersions`): `http2Preferred` by default,
        /// as the reference stack. Over HTTP/2 the fetches to one server share a connection, each on a stream of its
        /// own, with the same trust checks, pins, retries and error codes as over HTTP/1.1.
        public var httpVersions: HTTPVersions = .http2Preferred

        /// Creates the default configuration.
        public init() {}
    }
}
