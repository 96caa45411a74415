extension ServerTrustEvaluator {

    /// A set of pinning policies and what to do with hosts they do not cover.
    public struct Configuration: Sendable {

        /// The policies, in the order given.
        public let pinningPolicies: [PinningPolicy]

        /// The order in which chain certificates are compared with pins.
        public let certificateCheckingOrder: CertificateCheckingOrder

        /// Whether a host that no policy covers gets standard validation (`true`) or is refused (`false`).
        public let allowNotPinnedDomains: Bool

        /// Whether a host whose policy has expired gets standard validation (`true`, Alicerce's and
        /// TrustKit's default: an expired policy turns pinning off for its hosts) or is refused (`false`).
        public let allowExpiredDomainPolicies: Bool

        /// Creates a configuration, validating it.
        ///
        /// The policy for a host is the one whose domain is the host itself, else the one with the longest
        /// domain that covers the host through `includeSubdomains`: overlapping policies resolve the same way
        /// on every run, whatever their order.
        ///
        /// - Parameters:
        ///   - pinningPolicies: At least one policy, at most one per domain.
        ///   - certificateCheckingOrder: Default ``CertificateCheckingOrder/leafToRoot``.
        ///   - allowNotPinnedDomains: Default `false`: hosts without a policy are refused.
        ///   - allowExpiredDomainPolicies: Default `true`: expired policies fall back to standard validation.
        /// - Throws: ``ConfigurationValidationError``.
        public init(
            pinningPolicies: some Sequence<PinningPolicy>,
            certificateCheckingOrder: CertificateCheckingOrder = .leafToRoot,
            allowNotPinnedDomains: Bool = false,
            allowExpiredDomainPolicies: Bool = true
        ) throws(ConfigurationValidationError) {
            let policies = Array(pinningPolicies)
            guard !policies.isEmpty else { throw .emptyPolicies }
            var seen = Set<String>()
            for policy in policies where !seen.insert(policy.domainName).inserted {
                throw .duplicateDomain(policy.domainName)
            }
            self.pinningPolicies = policies
            self.certificateCheckingOrder = certificateCheckingOrder
            self.allowNotPinnedDomains = allowNotPinnedDomains
            self.allowExpiredDomainPolicies = allowExpiredDomainPolicies
        }

        /// The policy that applies to a host: exact domain first, then the longest covering domain (PIN-9).
        public func policy(forHost host: String) -> PinningPolicy? {
            let host = HostName.normalized(host)
            if let exact = pinningPolicies.first(where: { $0.domainName == host }) { return exact }
            return
                pinningPolicies
                .filter { $0.includeSubdomains && HostName.isProperSubdomain(host, of: $0.domainName) }
                .max { $0.domainName.count < $1.domainName.count }
        }
    }
}
