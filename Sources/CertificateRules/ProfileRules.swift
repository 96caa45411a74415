import NetworkCore

/// A ``ValidationProfile``'s own rules (beyond path validation) as one judge of a verified chain's facts, the same
/// for every stack: the reference stack hands it facts read with OpenSSL, the NIO stack facts read with
/// swift-certificates.
///
/// The rules are applied in a fixed order (the chain's shape, then each certificate's fields, then the names); the
/// first refusal stands. Which rules apply depends on the chain's trust anchor (``ChainFacts/anchorIsPublic``).
/// `x509-strict` and `inclusive-not-after` act inside a stack's path validation and are not judged here.
public struct ProfileRules: Sendable {

    /// The profile the rules come from.
    public let profile: ValidationProfile

    private let rulesForPublicRoots: [any ChainRule]
    private let rulesForPrivateRoots: [any ChainRule]

    /// Creates the judge of a profile.
    ///
    /// - Parameters:
    ///   - profile: The profile whose rules apply.
    ///   - maximumChainDepth: The most certificates above the leaf, when the profile applies
    ///     ``ValidationRule/maximumChainDepth``; `nil` sets no limit.
    public init(profile: ValidationProfile, maximumChainDepth: Int? = nil) {
        self.profile = profile
        rulesForPublicRoots = Self.rules(of: profile, publicRoot: true, maximumChainDepth: maximumChainDepth)
        rulesForPrivateRoots = Self.rules(of: profile, publicRoot: false, maximumChainDepth: maximumChainDepth)
    }

    /// Whether the judge has a rule to apply to some chain: a stack reads no facts for a profile without one.
    public var judgesChains: Bool { !(rulesForPublicRoots.isEmpty && rulesForPrivateRoots.isEmpty) }

    /// The first refusal of a verified chain by the rules for its anchor's origin, or `nil` when it passes them.
    public func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for rule in chain.anchorIsPublic ? rulesForPublicRoots : rulesForPrivateRoots {
            if let refusal = rule.refusal(of: chain) { return refusal }
        }
        return nil
    }

    private static func rules(of profile: ValidationProfile, publicRoot: Bool, maximumChainDepth: Int?) -> [any ChainRule] {
        let all: [(ValidationRule, (any ChainRule)?)] = [
            (.maximumChainDepth, maximumChainDepth.map(MaximumChainDepthRule.init)),
            (.serialNumber, SerialNumberRule()),
            (.extensionEncoding, ExtensionEncodingRule()),
            (.keyIdentifiers, KeyIdentifiersRule()),
            (.keyStrength, KeyStrengthRule()),
            (.caAsLeaf, CAAsLeafRule()),
            (.extendedKeyUsage, ExtendedKeyUsageRule()),
            (.constraintExtensions, ConstraintExtensionsRule()),
            (.dnsNameSyntax, DNSNameSyntaxRule()),
            (.subjectNames, SubjectNamesRule()),
            (.nameConstraintsOnHost, NameConstraintsOnHostRule()),
            (.publicSuffixWildcard, PublicSuffixWildcardRule()),
        ]
        return all.compactMap { rule, check in profile.applies(rule, publicRoot: publicRoot) ? check : nil }
    }
}
