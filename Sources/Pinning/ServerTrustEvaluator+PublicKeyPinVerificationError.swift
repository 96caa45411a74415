extension ServerTrustEvaluator {

    /// Why a host's pins were not verified.
    public enum PublicKeyPinVerificationError: Swift.Error, Sendable, Hashable, CustomStringConvertible {
        /// Standard validation failed (chain, dates, host name or purpose): pins never replace it.
        case evaluation(ChainValidationFailure)
        /// The verifier built no chain to check pins against.
        case noVerifiedChain
        /// No certificate matched, and the pin of the certificate at this index of the verified chain (0 is
        /// the leaf) could not be computed.
        case pinNotComputable(index: Int)
        /// No certificate of the verified chain has a configured pin.
        case pinnedHashNotFound

        public var description: String {
            switch self {
            case let .evaluation(failure): return "standard validation failed: \(failure)"
            case .noVerifiedChain: return "no verified chain"
            case let .pinNotComputable(index): return "the pin of certificate #\(index) could not be computed"
            case .pinnedHashNotFound: return "no certificate of the verified chain has a configured pin"
            }
        }
    }
}
