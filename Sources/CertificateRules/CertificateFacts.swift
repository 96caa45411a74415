/// What the validation profile's rules read of one certificate of a verified chain: plain values, decoded once by the
/// stack's own X.509 library (OpenSSL for the reference stack, swift-certificates for the NIO stack), so that one set
/// of rules judges both stacks' chains.
///
/// An adapter that cannot read a field says so in the field (an empty serial number, ``PublicKeyFacts/unreadable``,
/// ``NameConstraintsFacts/malformed``, a `nil` name): the rules refuse what they cannot read.
public struct CertificateFacts: Sendable, Hashable {

    /// Its position in the chain: 0 is the leaf.
    public var depth: Int

    /// The X.509 version (1, 2 or 3).
    public var version: Int

    /// Whether basicConstraints says cA=TRUE.
    public var isCA: Bool

    /// basicConstraints' pathLenConstraint, whether or not cA is set; `nil` when absent.
    public var pathLengthConstraint: Int?

    /// Whether keyUsage has keyCertSign; `nil` when the certificate has no keyUsage.
    public var keyUsageAllowsCertificateSigning: Bool?

    /// The serial number's content octets as DER encodes them (two's complement, big-endian, minimal); empty when it
    /// cannot be read.
    public var serialNumber: [UInt8]

    /// The subject public key.
    public var publicKey: PublicKeyFacts

    /// Every extension, in the certificate's order.
    public var extensions: [ExtensionFacts]

    /// The extendedKeyUsage purposes as dotted OIDs, or `nil` when the certificate has no extendedKeyUsage.
    public var extendedKeyUsage: [String]?

    /// Whether the authorityKeyIdentifier carries its keyIdentifier field; `nil` when the extension is absent.
    public var authorityKeyIdentifierHasKeyIdentifier: Bool?

    /// The subject's commonName values as UTF-8 text (`nil` for one that cannot be converted).
    public var subjectCommonNames: [String?]

    /// Whether the subject is the empty name.
    public var subjectIsEmpty: Bool

    /// Whether the issuer is the empty name.
    public var issuerIsEmpty: Bool

    /// Whether subject and issuer are the same name (a self-issued certificate, a root among them).
    public var isSelfIssued: Bool

    /// Whether the certificate has a subjectAltName extension with no entry at all.
    public var subjectAltNameIsEmpty: Bool

    /// Whether the signature algorithm outside the signed part is the one inside it.
    public var signatureAlgorithmsMatch: Bool

    /// The subjectAltName's DNS names as written (`nil` for one that is not printable ASCII: an embedded NUL would
    /// otherwise cut it short).
    public var subjectAltDNSNames: [String?]

    /// The subjectAltName's IP addresses, as their octets.
    public var subjectAltIPAddresses: [[UInt8]]

    /// The nameConstraints extension, decoded; `nil` when absent.
    public var nameConstraints: NameConstraintsFacts?

    /// Creates the facts of a certificate; what is not given is absent.
    public init(
        depth: Int, version: Int = 3, isCA: Bool = false, pathLengthConstraint: Int? = nil, keyUsageAllowsCertificateSigning: Bool? = nil,
        serialNumber: [UInt8], publicKey: PublicKeyFacts, extensions: [ExtensionFacts] = [], extendedKeyUsage: [String]? = nil,
        authorityKeyIdentifierHasKeyIdentifier: Bool? = nil, subjectCommonNames: [String?] = [], subjectIsEmpty: Bool = false,
        issuerIsEmpty: Bool = false, isSelfIssued: Bool = false, subjectAltNameIsEmpty: Bool = false, signatureAlgorithmsMatch: Bool = true,
        subjectAltDNSNames: [String?] = [], subjectAltIPAddresses: [[UInt8]] = [], nameConstraints: NameConstraintsFacts? = nil
    ) {
        self.depth = depth
        self.version = version
        self.isCA = isCA
        self.pathLengthConstraint = pathLengthConstraint
        self.keyUsageAllowsCertificateSigning = keyUsageAllowsCertificateSigning
        self.serialNumber = serialNumber
        self.publicKey = publicKey
        self.extensions = extensions
        self.extendedKeyUsage = extendedKeyUsage
        self.authorityKeyIdentifierHasKeyIdentifier = authorityKeyIdentifierHasKeyIdentifier
        self.subjectCommonNames = subjectCommonNames
        self.subjectIsEmpty = subjectIsEmpty
        self.issuerIsEmpty = issuerIsEmpty
        self.isSelfIssued = isSelfIssued
        self.subjectAltNameIsEmpty = subjectAltNameIsEmpty
        self.signatureAlgorithmsMatch = signatureAlgorithmsMatch
        self.subjectAltDNSNames = subjectAltDNSNames
        self.subjectAltIPAddresses = subjectAltIPAddresses
        self.nameConstraints = nameConstraints
    }

    /// Whether the certificate has an extension with this OID.
    func has(_ oid: String) -> Bool { extensions.contains { $0.oid == oid } }

    /// The criticality of each extension with this OID: empty if absent.
    func criticality(of oid: String) -> [Bool] {
        extensions.filter { $0.oid == oid }.map(\.isCritical)
    }
}
