/// A CA's nameConstraints extension as the adapter found it.
public enum NameConstraintsFacts: Sendable, Hashable {
    /// Decoded into its subtrees.
    case decoded(NameConstraintSubtrees)
    /// Present, but not decodable (or present twice).
    case malformed
}
