/// A verified chain as the profile's rules read it: its certificates' facts, the host asked for, and where its trust
/// anchor came from.
public struct ChainFacts: Sendable, Hashable {

    /// Leaf first, trust anchor last; never empty.
    public let certificates: [CertificateFacts]

    /// The requested host (normalized: lowercase, no trailing dot, IPv6 without brackets).
    public let host: String

    /// Whether the trust anchor is public (the system's store, or roots a stack names public) rather than a root a
    /// user added: it picks the profile's rules for the chain.
    public let anchorIsPublic: Bool

    /// Creates a chain's facts; `nil` for an empty chain.
    public init?(certificates: [CertificateFacts], host: String, anchorIsPublic: Bool) {
        guard !certificates.isEmpty else { return nil }
        self.certificates = certificates
        self.host = host
        self.anchorIsPublic = anchorIsPublic
    }

    var leaf: CertificateFacts { certificates[0] }

    /// The certificates a CA issued on the path: every one but the trust anchor, which RFC 5280 6.1 takes as a name
    /// and a key, outside the path (a root of the system store may have serial 0 or no key identifiers, and
    /// still be the anchor people trust). A leaf trusted directly is the whole chain and stays judged as the
    /// server's certificate.
    var issued: ArraySlice<CertificateFacts> { certificates.count > 1 ? certificates.dropLast() : certificates[...] }
}
