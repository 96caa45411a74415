import Foundation

extension ServerTrustEvaluator {

    /// The pins of one domain (and optionally its subdomains), valid until an expiration date.
    ///
    /// A server is trusted when standard validation succeeds **and** one certificate of the chain the
    /// verifier built (leaf, intermediate or anchor, the anchor even if the server did not send it) has the
    /// SPKI SHA-256 of one of ``pinnedHashes``.
    ///
    /// ```swift
    /// let policy = try ServerTrustEvaluator.PinningPolicy(
    ///     domainName: "api.example.com",
    ///     includeSubdomains: true,
    ///     expirationDate: ISO8601DateFormatter().date(from: "2031-11-10T00:00:00Z")!,
    ///     pinnedHashes: [intermediatePin, backupPin])
    /// ```
    public struct PinningPolicy: Sendable, Hashable, CustomStringConvertible {

        /// The domain, lowercased and without a trailing dot.
        public let domainName: String

        /// Whether the policy also covers every subdomain of ``domainName`` (never a parent domain).
        public let includeSubdomains: Bool

        /// After this date the policy is expired: see ``Configuration/allowExpiredDomainPolicies``.
        public let expirationDate: Date

        /// The pins, as given: base64 SHA-256 digests of DER `SubjectPublicKeyInfo`s.
        public let pinnedHashes: Set<String>

        /// Whether at least two distinct pins were required, so that one can be a backup key kept out of the
        /// served chain (RFC 7469 §4.3).
        public let enforceBackupPin: Bool

        /// The pins in canonical base64, which is how certificates' pins are compared.
        package let canonicalPins: Set<String>

        /// Creates a policy, validating it.
        ///
        /// - Parameters:
        ///   - domainName: A host name (`example.com`), `localhost` or an IP address; compared
        ///     case-insensitively with one trailing dot ignored. No scheme, port, path or wildcard.
        ///   - includeSubdomains: Also cover every subdomain of `domainName` (default `false`).
        ///   - expirationDate: When the policy expires (default: never).
        ///   - pinnedHashes: base64 SHA-256 digests of the DER `SubjectPublicKeyInfo` of certificates that may
        ///     appear in the verified chain (compute one with `Scripts/pin FILE`).
        ///   - enforceBackupPin: Require at least two distinct pins (default `true`).
        /// - Throws: ``PinningPolicyValidationError``, checked in this order: the domain name, empty pins,
        ///   invalid pins (all of them listed), then the missing backup pin.
        public init(
            domainName: String,
            includeSubdomains: Bool = false,
            expirationDate: Date = .distantFuture,
            pinnedHashes: Set<String>,
            enforceBackupPin: Bool = true
        ) throws(PinningPolicyValidationError) {
            if let problem = HostName.problem(with: domainName, includeSubdomains: includeSubdomains) {
                throw .invalidDomainName(domainName, reason: problem)
            }
            let domain = HostName.normalized(domainName)
            guard !pinnedHashes.isEmpty else { throw .emptyPins(domainName: domain) }
            let invalid = pinnedHashes.filter { SPKIPin.canonical($0) == nil }
            guard invalid.isEmpty else { throw .invalidPins(invalid) }
            let canonical = Set(pinnedHashes.compactMap(SPKIPin.canonical))
            if enforceBackupPin, canonical.count < 2 { throw .missingBackupPin(domainName: domain) }
            self.domainName = domain
            self.includeSubdomains = includeSubdomains
            self.expirationDate = expirationDate
            self.pinnedHashes = pinnedHashes
            self.enforceBackupPin = enforceBackupPin
            self.canonicalPins = canonical
        }

        /// Whether the policy has expired at a time (strictly after ``expirationDate``).
        func isExpired(at time: Date) -> Bool { expirationDate < time }

        public var description: String {
            var text = domainName
            var traits: [String] = []
            if includeSubdomains { traits.append("includeSubdomains") }
            if expirationDate != .distantFuture { traits.append("expires \(ISO8601DateFormatter().string(from: expirationDate))") }
            traits.append("\(canonicalPins.count) pin\(canonicalPins.count == 1 ? "" : "s")")
            text += " (\(traits.joined(separator: ", ")))"
            return text
        }
    }
}
