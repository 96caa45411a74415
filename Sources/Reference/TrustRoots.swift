import Foundation

/// The certificates a stack trusts as anchors of server chains.
///
/// Any trusted certificate ends a path, not only a self-signed root (RFC 5280 6.1): an intermediate given here makes
/// the chains under it trusted. A root is public (the system's store, or ``only(publicPEM:)``) or private (one a user
/// added): the validation profile holds chains that end at a private root to RFC 5280 and the security rules, not to
/// the Baseline Requirements, which bind only publicly-trusted CAs (`ValidationProfile`).
public struct TrustRoots: Sendable, Hashable {

    /// Whether the system's trust store (Debian: `/etc/ssl/certs`) is trusted.
    public let includesSystemRoots: Bool

    /// Further roots, as PEM text: private roots.
    public let additionalPEM: String

    /// Further roots the user names as public (judged as the system store's are), as PEM text.
    public let publicPEM: String

    /// Creates roots from the system store, private roots and roots named public.
    public init(includesSystemRoots: Bool, additionalPEM: String, publicPEM: String = "") {
        self.includesSystemRoots = includesSystemRoots
        self.additionalPEM = additionalPEM
        self.publicPEM = publicPEM
    }

    /// The system's trust store only.
    public static let system = TrustRoots(includesSystemRoots: true, additionalPEM: "")

    /// No root at all: every HTTPS server fails standard validation, and only an
    /// `AuthenticationChallengeHandler` that accepts a chain on its own terms (pin-only, say) lets one through.
    public static let none = TrustRoots(includesSystemRoots: false, additionalPEM: "")

    /// Only the given roots (PEM text with one or more certificates), as private roots; the system's store is not
    /// trusted.
    public static func only(pem: String) -> TrustRoots {
        TrustRoots(includesSystemRoots: false, additionalPEM: pem)
    }

    /// Only the given roots (PEM text), named public: chains that end at them are judged as chains that end at the
    /// system's store (a copy of a public store, or a test of the public rules).
    public static func only(publicPEM pem: String) -> TrustRoots {
        TrustRoots(includesSystemRoots: false, additionalPEM: "", publicPEM: pem)
    }

    /// The system's store plus the given roots (PEM text).
    public static func system(adding pem: String) -> TrustRoots {
        TrustRoots(includesSystemRoots: true, additionalPEM: pem)
    }

    /// Only the roots in the given PEM files, as private roots (or named public, with `public`).
    ///
    /// - Throws: `ServerCertificate/ReadError` if a file cannot be read or holds no valid certificate, so a
    ///   mistyped path fails here rather than as an untrusted server later; and for an empty list, which would trust
    ///   no root (``none`` says that on purpose).
    public static func only(pemFiles: [String], public: Bool = false) throws -> TrustRoots {
        guard !pemFiles.isEmpty else {
            throw ServerCertificate.ReadError(
                source: "TrustRoots.only(pemFiles:)",
                reason: "no file given: no root would be trusted (TrustRoots.none says that on purpose)")
        }
        let pem = try readRoots(pemFiles)
        return `public` ? .only(publicPEM: pem) : .only(pem: pem)
    }

    /// The system's store plus the roots in the given PEM files.
    ///
    /// - Throws: `ServerCertificate/ReadError` as ``only(pemFiles:public:)``.
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
