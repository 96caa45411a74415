/// Which rules a stack applies to a server's chain beyond standard validation (chain to a trusted root,
/// signatures, dates, purpose, host name).
///
/// ``strict`` (the default) refuses what RFC 5280 and the CA/Browser Forum Baseline Requirements forbid a
/// publicly trusted server certificate to be; ``compatible`` keeps only the rules that make the stack accept
/// more, for private PKIs whose certificates predate those rules. A stack may define its own profile from
/// ``ValidationRule``s.
public struct ValidationProfile: Sendable, Hashable, CustomStringConvertible {

    /// The profile's name, as reports and logs spell it.
    public let name: String

    /// The rules the profile applies.
    public let rules: Set<ValidationRule>

    /// Creates a profile.
    public init(name: String, rules: Set<ValidationRule>) {
        self.name = name
        self.rules = rules
    }

    /// Whether the profile applies a rule.
    public func applies(_ rule: ValidationRule) -> Bool { rules.contains(rule) }

    /// Every rule.
    public static let strict = ValidationProfile(name: "strict", rules: Set(ValidationRule.all))

    /// Standard validation as OpenSSL does it, with notAfter inclusive.
    public static let compatible = ValidationProfile(name: "compatible", rules: [.inclusiveNotAfter, .maximumChainDepth])

    public var description: String { name }
}
