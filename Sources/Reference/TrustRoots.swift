import Foundation

/// The certificates a stack trusts as roots of server chains.
public struct TrustRoots: Sendable, Hashable {

    /// Whether the system's trust store (Debian: `/etc/ssl/certs`) is trusted.
    public let includesSystemRoots: Bool

    /// Further roots, as PEM text.
    public let additionalPEM: String

    /// The system's trust store only.
    public static let system = TrustRoots(includesSystemRoots: true, additionalPEM: "")

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
    /// - Throws: the error of reading a file.
    public static func only(pemFiles: [String]) throws -> TrustRoots {
        .only(pem: try pemFiles.map { try String(contentsOfFile: $0, encoding: .utf8) }.joined(separator: "\n"))
    }
}
