/// Which rules a stack applies to a server's chain beyond standard validation (chain to a trusted root,
/// signatures, dates, purpose, host name).
///
/// A profile names the rules it applies to chains that end at a public root (the system's trust store, or roots
/// a stack names as public) and, apart, those it applies to chains that end at a private root (one a user added).
/// ``strict`` (the default) refuses what RFC 5280 and the CA/Browser Forum Baseline Requirements forbid a publicly
/// trusted server certificate to be, and holds private roots to RFC 5280 and the security rules only, since the
/// Baseline Requirements do not bind a private CA; ``strictForAllRoots`` applies every rule to every chain;
/// ``compatible`` keeps only the rules that make the stack accept more, for private PKIs whose certificates
/// predate those rules. A stack may define its own profile from ``ValidationRule``s.
public struct ValidationProfile: Sendable, Hashable, CustomStringConvertible {

    /// The profile's name, as reports and logs spell it.
    public let name: String

    /// The rules the profile applies to a chain that ends at a public root.
    public let rules: Set<ValidationRule>

    /// The rules the profile applies to a chain that ends at a private root. (`x509-strict` and
    /// `inclusive-not-after` act while the path is built, before its anchor is known: ``rules`` decides them.)
    public let rulesForPrivateRoots: Set<ValidationRule>

    /// Creates a profile.
    ///
    /// - Parameters:
    ///   - name: The profile's name, as reports and logs spell it.
    ///   - rules: The rules for chains that end at a public root.
    ///   - rulesForPrivateRoots: The rules for chains that end at a private root; `nil` (the default) is `rules`
    ///     without those ``ValidationRule/isBaselineRequirementsOnly``.
    public init(name: String, rules: Set<ValidationRule>, rulesForPrivateRoots: Set<ValidationRule>? = nil) {
        self.name = name
        self.rules = rules
        self.rulesForPrivateRoots = rulesForPrivateRoots ?? rules.filter { !$0.isBaselineRequirementsOnly }
    }

    /// Whether the profile applies a rule to a chain that ends at a public root.
    public func applies(_ rule: ValidationRule) -> Bool { rules.contains(rule) }

    /// Whether the profile applies a rule to a chain whose trust anchor is public or private.
    public func applies(_ rule: ValidationRule, publicRoot: Bool) -> Bool {
        (publicRoot ? rules : rulesForPrivateRoots).contains(rule)
    }

    /// Every rule for chains that end at a public root; RFC 5280's and the security rules for private roots.
    public static let strict = ValidationProfile(name: "strict", rules: Set(ValidationRule.all))

    /// Every rule for every chain, the Baseline Requirements' ones too: for a private PKI run to the public rules.
    public static let strictForAllRoots = ValidationProfile(
        name: "strict-for-all-roots", rules: Set(ValidationRule.all), rulesForPrivateRoots: Set(ValidationRule.all))

    /// Standard validation as OpenSSL does it, with notAfter inclusive.
    public static let compatible = ValidationProfile(name: "compatible", rules: [.inclusiveNotAfter, .maximumChainDepth])

    public var description: String { name }
}
