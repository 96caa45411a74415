import NetworkCore

/// A `ValidationProfile`'s own rules (beyond path validation) as one judge of a verified chain's facts, the same
/// for every stack: the reference stack hands it facts read with OpenSSL, the NIO stack facts read with
/// swift-certificates.
///
/// The rules are applied in a fixed order (the chain's shape, then each certificate's fields, then the names); the
/// first refusal stands. Which rules apply depends on the chain's trust anchor (``ChainFacts/anchorIsPublic``).
/// `inclusive-not-after` acts inside a stack's path validation and is not judged here; `x509-strict` is OpenSSL's
/// own checks, judged here, first, only for a stack that asks (`judgesX509Strict`) because its path validation is not
/// OpenSSL's.
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
    ///     `ValidationRule.maximumChainDepth`; `nil` sets no limit.
    ///   - judgesX509Strict: Whether to judge `ValidationRule.x509Strict` here, when the profile applies it: for a
    ///     stack whose path validation does not make OpenSSL's strict X.509 checks itself.
    public init(profile: ValidationProfile, maximumChainDepth: Int? = nil, judgesX509Strict: Bool = false) {
        self.profile = profile
        rulesForPublicRoots = Self.rules(
            of: profile, publicRoot: true, maximumChainDepth: maximumChainDepth, judgesX509Strict: judgesX509Strict)
        rulesForPrivateRoots = Self.rules(
            of: profile, publicRoot: false, maximumChainDepth: maximumChainDepth, judgesX509Strict: judgesX509Strict)
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

    /// The refusal of a served certificate that the stack's X.509 library could not parse, by the rules that read only
    /// its serial number and key: a library may refuse to parse what the profile refuses (an RSA key under 2048 bits, a
    /// DSA key, a curve it lacks, a negative serial), and the refusal is then the profile's, not a failed handshake.
    /// `nil` when neither rule refuses it.
    ///
    /// - Parameters:
    ///   - certificate: The facts read from its DER: its depth, serial number and key are read, nothing else.
    ///   - anchorIsPublic: Whether the chain ends at a public root, if the stack can tell (`true` otherwise: the
    ///     stricter set).
    public func refusal(ofUnparsed certificate: CertificateFacts, anchorIsPublic: Bool = true) -> ChainValidationFailure? {
        let chain = ChainFacts(certificates: [certificate], host: "", anchorIsPublic: anchorIsPublic)!
        for rule in anchorIsPublic ? rulesForPublicRoots : rulesForPrivateRoots where rule is SerialNumberRule || rule is KeyStrengthRule {
            if let refusal = rule.refusal(of: chain) { return refusal }
        }
        return nil
    }

    private static func rules(of profile: ValidationProfile, publicRoot: Bool, maximumChainDepth: Int?, judgesX509Strict: Bool)
        -> [any ChainRule]
    {
        let all: [(ValidationRule, (any ChainRule)?)] = [
            (.x509Strict, judgesX509Strict ? X509StrictRule() : nil),
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
