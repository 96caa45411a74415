/// One extension of a certificate, as the rules read it.
public struct ExtensionFacts: Sendable, Hashable {

    /// Its OID, dotted (`2.5.29.17`).
    public var oid: String

    /// Whether it is marked critical.
    public var isCritical: Bool

    /// Whether its value decodes as its definition says, with nothing after it, and, for authorityInfoAccess,
    /// cRLDistributionPoints and certificatePolicies, is not an empty sequence. An extension the adapter has no
    /// definition for counts as well formed: a critical one is refused by the path validation itself.
    public var isWellFormed: Bool

    /// Creates the facts of an extension.
    public init(oid: String, isCritical: Bool = false, isWellFormed: Bool = true) {
        self.oid = oid
        self.isCritical = isCritical
        self.isWellFormed = isWellFormed
    }

    /// The OIDs of the extensions the rules name.
    public enum OID {
        /// subjectKeyIdentifier (RFC 5280 4.2.1.2).
        public static let subjectKeyIdentifier = "2.5.29.14"
        /// basicConstraints (RFC 5280 4.2.1.9).
        public static let basicConstraints = "2.5.29.19"
        /// authorityKeyIdentifier (RFC 5280 4.2.1.1).
        public static let authorityKeyIdentifier = "2.5.29.35"
        /// subjectAltName (RFC 5280 4.2.1.6).
        public static let subjectAltName = "2.5.29.17"
        /// nameConstraints (RFC 5280 4.2.1.10).
        public static let nameConstraints = "2.5.29.30"
        /// policyConstraints (RFC 5280 4.2.1.11).
        public static let policyConstraints = "2.5.29.36"
        /// extendedKeyUsage (RFC 5280 4.2.1.12).
        public static let extendedKeyUsage = "2.5.29.37"
        /// The serverAuth purpose of extendedKeyUsage.
        public static let serverAuth = "1.3.6.1.5.5.7.3.1"
        /// The anyExtendedKeyUsage purpose.
        public static let anyExtendedKeyUsage = "2.5.29.37.0"
    }

    /// Whether an extension's value is judged (``isWellFormed`` says whether it is DER of its definition): the ones
    /// RFC 5280, the CRL and OCSP profiles and the old Netscape set define, which OpenSSL decodes. Any other is opaque
    /// to both stacks, so that their verdicts do not hang on which extensions one library happens to know.
    public static func hasJudgedEncoding(_ oid: String) -> Bool { names[oid] != nil }

    /// How refusals name an extension: OpenSSL's long name for the judged ones (so both stacks say the same), the
    /// dotted OID for any other.
    var displayName: String { Self.names[oid] ?? oid }

    /// subjectDirectoryAttributes (2.5.29.9) is not among them: OpenSSL decodes it from 3.4 on, and Debian's is 3.0.
    private static let names: [String: String] = [
        "2.5.29.14": "X509v3 Subject Key Identifier",
        "2.5.29.15": "X509v3 Key Usage",
        "2.5.29.17": "X509v3 Subject Alternative Name",
        "2.5.29.18": "X509v3 Issuer Alternative Name",
        "2.5.29.19": "X509v3 Basic Constraints",
        "2.5.29.30": "X509v3 Name Constraints",
        "2.5.29.31": "X509v3 CRL Distribution Points",
        "2.5.29.32": "X509v3 Certificate Policies",
        "2.5.29.33": "X509v3 Policy Mappings",
        "2.5.29.35": "X509v3 Authority Key Identifier",
        "2.5.29.36": "X509v3 Policy Constraints",
        "2.5.29.37": "X509v3 Extended Key Usage",
        "2.5.29.54": "X509v3 Inhibit Any Policy",
        "1.3.6.1.5.5.7.1.1": "Authority Information Access",
        "1.3.6.1.5.5.7.1.24": "TLS Feature",
        "2.5.29.16": "X509v3 Private Key Usage Period",
        "2.5.29.46": "X509v3 Freshest CRL",
        "1.3.6.1.5.5.7.1.11": "Subject Information Access",
        "1.3.6.1.5.5.7.48.1.5": "OCSP No Check",
        "1.3.6.1.4.1.11129.2.4.2": "CT Precertificate SCTs",
        "2.16.840.1.113730.1.1": "Netscape Cert Type",
        "2.16.840.1.113730.1.13": "Netscape Comment",
        "2.16.840.1.113730.1.2": "Netscape Base Url",
        "2.16.840.1.113730.1.3": "Netscape Revocation Url",
        "2.16.840.1.113730.1.4": "Netscape CA Revocation Url",
        "2.16.840.1.113730.1.7": "Netscape Renewal Url",
        "2.16.840.1.113730.1.8": "Netscape CA Policy Url",
        "2.16.840.1.113730.1.12": "Netscape SSL Server Name",
        "2.5.29.20": "X509v3 CRL Number",
        "2.5.29.21": "X509v3 CRL Reason Code",
        "2.5.29.23": "Hold Instruction Code",
        "2.5.29.24": "Invalidity Date",
        "2.5.29.27": "X509v3 Delta CRL Indicator",
        "2.5.29.29": "X509v3 Certificate Issuer",
    ]
}
