import Foundation

/// Why standard validation of a server's chain failed.
public struct ChainValidationFailure: Error, Sendable, Hashable, CustomStringConvertible {

    /// The kind of failure a program can switch on. New kinds may be added: switch with a `default`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Base: String, Sendable {
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
            case nameConstraintViolation = "name-constraint-violation"
            case caUsedAsLeaf = "ca-used-as-leaf"
            case publicSuffixWildcard = "public-suffix-wildcard"
            case forbiddenKey = "forbidden-key"
            case extendedKeyUsage = "extended-key-usage"
            case invalidSerialNumber = "invalid-serial-number"
            case malformedName = "malformed-name"
            case invalidConstraints = "invalid-constraints"
            case strictProfile = "strict-profile"
            case chainTooDeep = "chain-too-deep"
            case commonNameNotInSubjectAltName = "common-name-not-in-san"
            case invalidExtension = "invalid-extension"
            case revoked = "revoked"
            case revocationUnavailable = "revocation-unavailable"
            case invalidRevocationData = "invalid-revocation-data"
            case other = "other"
        }
        private let base: Base
        private init(_ base: Base) { self.base = base }

        /// The kind with this stable name (``rawValue``), if there is one.
        public init?(rawValue: String) {
            guard let base = Base(rawValue: rawValue) else { return nil }
            self.base = base
        }

        /// The kind's stable name (`expired`, `name-constraint-violation`, …), as the certificate manifest
        /// and reports spell it.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }

        /// Whether the failure is about revocation (``revoked``, ``revocationUnavailable``,
        /// ``invalidRevocationData``): a stack refuses it whatever an authentication challenge handler says.
        public var concernsRevocation: Bool { [.revoked, .revocationUnavailable, .invalidRevocationData].contains(base) }

        /// A certificate's notAfter is before the verification time.
        public static let expired = Kind(.expired)
        /// A certificate's notBefore is after the verification time.
        public static let notYetValid = Kind(.notYetValid)
        /// The leaf is not for the host connected to.
        public static let hostnameMismatch = Kind(.hostnameMismatch)
        /// The chain ends at a root that is not trusted.
        public static let untrustedRoot = Kind(.untrustedRoot)
        /// No issuer of some certificate could be found.
        public static let unableToGetIssuer = Kind(.unableToGetIssuer)
        /// The leaf is self-signed and not trusted.
        public static let selfSigned = Kind(.selfSigned)
        /// An issuing certificate is not a CA.
        public static let invalidCA = Kind(.invalidCA)
        /// A CA's pathLenConstraint is exceeded.
        public static let pathLengthExceeded = Kind(.pathLengthExceeded)
        /// A signature does not verify.
        public static let badSignature = Kind(.badSignature)
        /// A certificate is not for TLS server authentication.
        public static let invalidPurpose = Kind(.invalidPurpose)
        /// The requested host (or a certificate name) is outside a CA's name constraints.
        public static let nameConstraintViolation = Kind(.nameConstraintViolation)
        /// The server's leaf is a CA certificate (basicConstraints cA=TRUE).
        public static let caUsedAsLeaf = Kind(.caUsedAsLeaf)
        /// A wildcard DNS name covers a whole public suffix (`*.co.uk`).
        public static let publicSuffixWildcard = Kind(.publicSuffixWildcard)
        /// A key's algorithm or size is not allowed (RSA under 2048 bits or not a multiple of 8, DSA, P-192, …).
        public static let forbiddenKey = Kind(.forbiddenKey)
        /// A certificate's extendedKeyUsage is not allowed where it is (a leaf without serverAuth or with
        /// anyExtendedKeyUsage, a root with any).
        public static let extendedKeyUsage = Kind(.extendedKeyUsage)
        /// A serial number is zero, negative or longer than 20 octets.
        public static let invalidSerialNumber = Kind(.invalidSerialNumber)
        /// A DNS name in the leaf's subjectAltName is not a valid host name (underscore, empty label, …).
        public static let malformedName = Kind(.malformedName)
        /// A name or policy constraints extension is malformed, empty, not critical, or in a leaf.
        public static let invalidConstraints = Kind(.invalidConstraints)
        /// A structural check of RFC 5280 that strict X.509 verification applies failed (a missing key
        /// identifier, a CA's basicConstraints not critical, an empty name, …); ``ChainValidationFailure/code``
        /// says which.
        public static let strictProfile = Kind(.strictProfile)
        /// The verified chain is longer than the configured maximum.
        public static let chainTooDeep = Kind(.chainTooDeep)
        /// The leaf's subject commonName is not one of its subjectAltName entries, spelled the same.
        public static let commonNameNotInSubjectAltName = Kind(.commonNameNotInSubjectAltName)
        /// An extension is malformed, repeated, empty where it must not be, critical where it must not be, or lacks a
        /// field it must have (an authorityKeyIdentifier without its keyIdentifier).
        public static let invalidExtension = Kind(.invalidExtension)
        /// A held revocation list, or an OCSP response the server stapled, says a certificate is revoked.
        public static let revoked = Kind(.revoked)
        /// The revocation policy requires revocation data that is not there: no current list covers a
        /// certificate, a server did not staple a response it had to, or the response's status is unknown.
        public static let revocationUnavailable = Kind(.revocationUnavailable)
        /// Revocation data that cannot be used: a list or response past its next update or not yet valid,
        /// signed by someone other than the certificate's issuer or its delegated responder, or malformed.
        public static let invalidRevocationData = Kind(.invalidRevocationData)
        /// Any other failure; ``ChainValidationFailure/code`` and ``ChainValidationFailure/reason`` say which.
        public static let other = Kind(.other)
    }

    /// The kind of failure.
    public let kind: Kind

    /// The verifier's own error code (OpenSSL's `X509_V_ERR_*` for the reference stack).
    public let code: Int

    /// The verifier's message.
    public let reason: String

    /// The depth in the chain of the certificate that failed (0 is the leaf).
    public let depth: Int

    /// The validation profile rule that refused the chain, when a profile rule (rather than the verifier's
    /// own chain checks) decided.
    public let rule: ValidationRule?

    /// Creates a failure.
    public init(kind: Kind, code: Int, reason: String, depth: Int, rule: ValidationRule? = nil) {
        self.kind = kind
        self.code = code
        self.reason = reason
        self.depth = depth
        self.rule = rule
    }

    /// One line: the kind, the depth (0 is the leaf), the verifier's message (escaped and bounded), its code and the
    /// profile rule, if one decided.
    public var description: String {
        "\(kind.rawValue) at depth \(depth): \(DisplayText.line(reason)) (verify error \(code)\(rule.map { ", rule \($0)" } ?? ""))"
    }
}

extension ChainValidationFailure: LocalizedError {
    /// The ``description``.
    public var errorDescription: String? { "certificate chain not trusted: \(description)" }
}
