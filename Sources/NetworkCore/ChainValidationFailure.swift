/// Why standard validation of a server's chain failed.
public struct ChainValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {

    /// The kind of failure a program can switch on.
    public enum Kind: String, Sendable, Hashable {
        case expired = "expired"
        case notYetValid = "not-yet-valid"
        case hostnameMismatch = "hostname-mismatch"
        case untrustedRoot = "untrusted-root"
        case unableToGetIssuer = "unable-to-get-issuer"
        case selfSigned = "self-signed"
        case invalidCA = "invalid-ca"
        case pathLengthExceeded = "path-length-exceeded"
        case badSignature = "bad-signature"
        case invalidPurpose = "invalid-purpose"
        case other = "other"
    }

    /// The kind of failure.
    public let kind: Kind

    /// The verifier's own error code (OpenSSL's `X509_V_ERR_*` for the reference stack).
    public let code: Int

    /// The verifier's message.
    public let reason: String

    /// The depth in the chain of the certificate that failed (0 is the leaf).
    public let depth: Int

    /// Creates a failure.
    public init(kind: Kind, code: Int, reason: String, depth: Int) {
        self.kind = kind
        self.code = code
        self.reason = reason
        self.depth = depth
    }

    public var description: String { "\(kind.rawValue) at depth \(depth): \(reason) (verify error \(code))" }
}
