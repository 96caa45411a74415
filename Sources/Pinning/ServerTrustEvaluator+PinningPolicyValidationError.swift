extension ServerTrustEvaluator {

    /// Why a ``PinningPolicy`` could not be created; each case names the offending value.
    public enum PinningPolicyValidationError: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// The domain name is unusable, for the given reason.
        case invalidDomainName(String, reason: DomainNameProblem)
        /// The policy for the domain has no pins.
        case emptyPins(domainName: String)
        /// These pins (all of them, not just the first) are not strict padded base64 of a 32-byte SHA-256 digest.
        case invalidPins(Set<String>)
        /// `enforceBackupPin` is on but the policy for the domain has fewer than two distinct pins.
        case missingBackupPin(domainName: String)

        public var description: String {
            switch self {
            case let .invalidDomainName(name, reason):
                return "invalid pinning policy domain name \"\(name)\": \(reason)"
            case let .emptyPins(domainName):
                return "pinning policy for \(domainName) has no pins"
            case let .invalidPins(pins):
                return "invalid pins (not padded base64 of a 32-byte SHA-256): \(pins.sorted().map { "\"\($0)\"" }.joined(separator: ", "))"
            case let .missingBackupPin(domainName):
                return "pinning policy for \(domainName) enforces a backup pin but has only one distinct pin; "
                    + "add the pin of a spare key that is not in the served chain"
            }
        }
    }
}
