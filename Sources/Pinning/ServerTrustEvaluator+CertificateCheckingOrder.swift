extension ServerTrustEvaluator {

    /// The order in which the certificates of a verified chain are compared with the pins.
    ///
    /// One match anywhere in the chain is enough, so the order only changes how soon a match is found.
    public enum CertificateCheckingOrder: Sendable, Hashable {
        /// From the leaf (index 0) to the anchor.
        case leafToRoot
        /// From the anchor to the leaf.
        case rootToLeaf

        /// The indices of a chain of the given length, in this order.
        public func indices(forChainOfLength count: Int) -> [Int] {
            switch self {
            case .leafToRoot: return Array(0..<count)
            case .rootToLeaf: return Array((0..<count).reversed())
            }
        }
    }
}
