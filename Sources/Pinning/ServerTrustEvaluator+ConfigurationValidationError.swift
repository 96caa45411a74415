extension ServerTrustEvaluator {

    /// Why a ``Configuration`` could not be created.
    public enum ConfigurationValidationError: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// No pinning policy was given.
        case emptyPolicies
        /// Two or more policies name the same domain (compared case-insensitively, trailing dot ignored),
        /// which would leave the policy that applies to its hosts ambiguous.
        case duplicateDomain(String)

        public var description: String {
            switch self {
            case .emptyPolicies: return "pinning configuration has no policies"
            case let .duplicateDomain(domain): return "pinning configuration has more than one policy for \(domain)"
            }
        }
    }
}
