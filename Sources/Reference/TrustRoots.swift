import Foundation

/// The certificates a stack trusts as roots of server chains.
public struct TrustRoots: Sendable, Hashable {

    /// Whether the system's trust store (Debian: `/etc/ssl/certs`) is trusted.
    public let includesSystemRoots: Bool

    /// Further roots, as PEM text.
    public let additionalPEM: String

    /// The system's trust store only.
    public static let system = TrustRoots(includesSystemRoots: true, additionalPEM: "")

    /// No root at all: every HTTPS server fails standard validation, and only an
    /// `AuthenticationChallengeHandler` that accepts a chain on its own terms (pin-only, say) lets one through.
    public static let none = TrustRoots(includesSystemRoots: false, additionalPEM: "")

    /// Only the given roots (PEM text with one or more certificates); the system's store is not trusted.
    public static func only(pem: String) -> TrustRoots {
        TrustRoots(includesSystemRoots: false, additionalPEM: pem)
    }

    /// The system's store plus the given roots (PEM text).
    public static func system(adding pem: String) -> TrustRoots {
        TrustRoots(includesSystemRoots: true, additionalPEM: pem)
    }

    /// Only the roots in the given PEM files.
    ///
    /// - Throws: `ServerCertificate/ReadError` if a file cannot be read or holds no valid certificate, so a
    ///   mistyped path fails here rather than as an untrusted server later.
    public static func only(pemFiles: [String]) throws -> TrustRoots {
        .only(pem: try readRoots(pemFiles))
    }

    /// The system's store plus the roots in the given PEM files.
    ///
    /// - Throws: `ServerCertificate/ReadError` as ``only(pemFiles:)``.
    public static func system(addingPEMFiles pemFiles: [String]) throws -> TrustRoots {
        .system(adding: try readRoots(pemFiles))
    }

    private static func readRoots(_ pemFiles: [String]) throws -> String {
        try pemFiles.map { path in
            _ = try ServerCertificate.certificates(pemFile: path)
            return try String(contentsOfFile: path, encoding: .utf8)
        }.joined(separator: "\n")
    }
}
