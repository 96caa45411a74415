extension ServerTrustEvaluator {

    /// Why ``ServerTrustEvaluator/evaluate(_:)`` did not trust a server.
    public enum Error: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// No policy covers the host.
        case domainNotPinned
        /// The policy that covers the host expired before the challenge's verification time.
        case domainPolicyExpired
        /// The policy that covers the host was not satisfied.
        case pinVerificationFailed(PublicKeyPinVerificationError)

        public var description: String {
            switch self {
            case .domainNotPinned: return "no pinning policy covers the host"
            case .domainPolicyExpired: return "the host's pinning policy has expired"
            case let .pinVerificationFailed(inner): return "pin verification failed: \(inner)"
            }
        }
    }
}
