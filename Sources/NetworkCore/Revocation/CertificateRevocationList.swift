/// A certificate revocation list (RFC 5280 section 5) that a user holds, as DER.
///
/// Made by the loaders in `Pinning` (`CertificateRevocationList(der:)`, `lists(pemFile:)`), which parse
/// it first: a list that reached a ``RevocationPolicy`` is well-formed.
public struct CertificateRevocationList: Sendable, Hashable {

    /// The list's DER encoding.
    public let der: [UInt8]

    /// Wraps DER that a loader has parsed.
    package init(parsedDER der: [UInt8]) {
        self.der = der
    }
}
