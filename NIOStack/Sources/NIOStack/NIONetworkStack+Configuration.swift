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
            /// Only these certificates: a chain to any other root is refused.
            case only([Certificate])

            /// Only the certificates in these PEM files (each may hold several).
            ///
            /// - Throws: the file's read error, or swift-certificates' parse error, naming nothing but the cause.
            public static func only(pemFiles: [String]) throws -> TrustRoots {
                .only(try pemFiles.flatMap { try Self.certificates(inPEMFile: $0) })
            }

            static func certificates(inPEMFile path: String) throws -> [Certificate] {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                return try PEMDocument.parseMultiple(pemString: text).map { try Certificate(pemDocument: $0) }
            }

            var certificates: [Certificate] {
                switch self {
                case .only(let certificates): return certificates
                case .system: return (try? Self.certificates(inPEMFile: "/etc/ssl/certs/ca-certificates.crt")) ?? []
                }
            }
        }

        /// A host name and port sent to another address instead of asking DNS (NetworkCore's `HostOverride`).
        public typealias ResolveOverride = HostOverride

        /// The roots standard validation trusts (the system bundle by default).
        public var trustRoots: TrustRoots = .system

        /// The time certificates are checked against; `nil` is the time of each handshake.
        public var verificationTime: Date?

        /// The largest response body accepted, in bytes; a larger one fails with `dataLengthExceedsMaximum`.
        public var maximumResponseSize: Int = 100 * 1024 * 1024

        /// The longest one attempt may take, however steadily bytes arrive (seven days, as URLSession has it).
        public var timeoutIntervalForResource: TimeInterval = 7 * 24 * 3600

        /// Host names sent to another address.
        public var resolveOverrides: [ResolveOverride] = []

        /// Creates the default configuration.
        public init() {}
    }
}
