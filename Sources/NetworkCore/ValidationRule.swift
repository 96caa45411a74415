/// One rule a ``ValidationProfile`` applies on top of chain building, signatures, dates, purpose and the host
/// name check. New rules may be added: switch with a `default`.
public struct ValidationRule: Sendable, Hashable, CustomStringConvertible {
    private enum Base: String, Sendable, CaseIterable {
        case inclusiveNotAfter = "inclusive-not-after"
        case x509Strict = "x509-strict"
        case serialNumber = "serial-number"
        case keyStrength = "key-strength"
        case caAsLeaf = "ca-as-leaf"
        case extendedKeyUsage = "extended-key-usage"
        case constraintExtensions = "constraint-extensions"
        case dnsNameSyntax = "dns-name-syntax"
        case nameConstraintsOnHost = "name-constraints-on-host"
        case publicSuffixWildcard = "public-suffix-wildcard"
        case maximumChainDepth = "maximum-chain-depth"
        case subjectNames = "subject-names"
        case keyIdentifiers = "key-identifiers"
        case extensionEncoding = "extension-encoding"
    }
    private let base: Base
    private init(_ base: Base) { self.base = base }

    /// The rule with this stable name, if there is one.
    public init?(rawValue: String) {
        guard let base = Base(rawValue: rawValue) else { return nil }
        self.base = base
    }

    /// The rule's stable name (`name-constraints-on-host`, …).
    public var rawValue: String { base.rawValue }
    public var description: String { base.rawValue }

    /// A certificate is valid at its notAfter instant, as RFC 5280 4.1.2.5 says (OpenSSL treats it as expired).
    public static let inclusiveNotAfter = ValidationRule(.inclusiveNotAfter)
    /// OpenSSL's `X509_V_FLAG_X509_STRICT` checks of RFC 5280 structure (key identifiers, critical
    /// basicConstraints of a CA, keyUsage, non-empty names, …).
    public static let x509Strict = ValidationRule(.x509Strict)
    /// Serial numbers are positive and at most 20 octets (RFC 5280 4.1.2.2).
    public static let serialNumber = ValidationRule(.serialNumber)
    /// Keys are RSA of at least 2048 bits and a multiple of 8, EC P-256, P-384 or P-521, or Ed25519/Ed448.
    public static let keyStrength = ValidationRule(.keyStrength)
    /// The server's leaf is not a CA certificate.
    public static let caAsLeaf = ValidationRule(.caAsLeaf)
    /// The leaf has an extendedKeyUsage with serverAuth and without anyExtendedKeyUsage; the root has none.
    public static let extendedKeyUsage = ValidationRule(.extendedKeyUsage)
    /// Name and policy constraints are critical, well formed, not empty, and only in CA certificates.
    public static let constraintExtensions = ValidationRule(.constraintExtensions)
    /// Every DNS name of the leaf's subjectAltName is a valid host name or a wildcard over one.
    public static let dnsNameSyntax = ValidationRule(.dnsNameSyntax)
    /// The requested host name is within every CA's name constraints, whatever name of the leaf matched it.
    public static let nameConstraintsOnHost = ValidationRule(.nameConstraintsOnHost)
    /// No wildcard of the leaf covers a whole public suffix.
    public static let publicSuffixWildcard = ValidationRule(.publicSuffixWildcard)
    /// The verified chain is no deeper than the stack's configured maximum (applied whenever one is set).
    public static let maximumChainDepth = ValidationRule(.maximumChainDepth)
    /// The leaf's subject commonName, when it has a subjectAltName, is one of its names, spelled the same; the
    /// subjectAltName is critical only when the subject is empty (CA/B Forum Baseline Requirements 7.1.4.3,
    /// 7.1.2.7.12; RFC 5280 4.2.1.6).
    public static let subjectNames = ValidationRule(.subjectNames)
    /// Every authorityKeyIdentifier has a keyIdentifier (RFC 5280 4.2.1.1; Baseline Requirements 7.1.2.1.3 for roots).
    public static let keyIdentifiers = ValidationRule(.keyIdentifiers)
    /// Every extension of every certificate appears once and decodes, and those RFC 5280 defines as non-empty
    /// sequences (authorityInfoAccess, cRLDistributionPoints, certificatePolicies) are not empty.
    public static let extensionEncoding = ValidationRule(.extensionEncoding)

    /// Every rule (``ValidationProfile/strict``); a profile applies its rules in an order of its own.
    public static var all: [ValidationRule] { Base.allCases.map(ValidationRule.init) }

    /// Whether the rule comes from the CA/Browser Forum's Baseline Requirements alone, which bind publicly-trusted
    /// CAs: a private CA may issue what it forbids (`CN=payments-service` beside `SAN=payments.internal`), so
    /// ``ValidationProfile/strict`` applies it only to chains that end at a public root. Every other rule is RFC
    /// 5280's or guards security (malformed names and constraints, weak keys, a CA as leaf) and applies to every
    /// chain.
    public var isBaselineRequirementsOnly: Bool {
        switch base {
        case .serialNumber, .extendedKeyUsage, .publicSuffixWildcard, .subjectNames: true
        default: false
        }
    }
}
