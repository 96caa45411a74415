/// Whether and how a stack checks that a server's certificates are not revoked, from revocation data it
/// is given: certificate revocation lists the user holds, and OCSP responses the server staples to its
/// handshake.
///
/// Nothing is fetched: no OCSP responder and no CRL distribution point is ever contacted. A fetch during
/// a handshake would tell a third party which hosts the client talks to, stall the connection on a
/// server nobody tested, and (as browsers learned) be skipped whenever it fails, which makes it no check
/// at all.
///
/// The default, ``off``, checks nothing, as libcurl does unless asked.
///
/// ```swift
/// var configuration = URLSessionNetworkStack.Configuration()
/// configuration.revocation = RevocationPolicy(
///     revocationLists: try CertificateRevocationList.lists(pemFile: "issuer.crl.pem"),
///     listCoverage: .leaf, stapling: .checkedWhenStapled)
/// ```
///
/// A revoked certificate, and missing revocation data that the policy requires, are refused whatever an
/// authentication challenge handler says: pins say which key a server holds, not that the key is still
/// to be trusted.
public struct RevocationPolicy: Sendable, Hashable, CustomStringConvertible {

    /// Which certificates of a verified chain must be covered by a held revocation list.
    public enum ListCoverage: String, Sendable, Hashable {
        /// A certificate whose issuer has a held list is checked against it; others pass.
        case whereHeld = "where-held"
        /// The leaf must be covered by a current held list, and other certificates are checked where one is held.
        case leaf
        /// Every certificate of the chain, the trust anchor included, must be covered by a current held list.
        case chain
    }

    /// What the stack does with an OCSP response stapled to the handshake (RFC 6066 `status_request`).
    public enum Stapling: String, Sendable, Hashable {
        /// No response is asked for, and the TLS feature extension of RFC 7633 (must-staple) is not enforced.
        case off
        /// A response is asked for and, if the server staples one, it must be valid at the verification
        /// time and say the leaf is good. A leaf that demands a staple (must-staple) must get one.
        case checkedWhenStapled = "checked-when-stapled"
        /// As ``checkedWhenStapled``, and every server must staple.
        case required
    }

    /// The revocation lists held, each checked when it comes from the issuer of a certificate of the chain.
    public let revocationLists: [CertificateRevocationList]
    /// Which certificates a held list must cover.
    public let listCoverage: ListCoverage
    /// What happens to stapled OCSP responses.
    public let stapling: Stapling

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - revocationLists: Lists the user holds (load them with `CertificateRevocationList.lists(pemFile:)`).
    ///   - listCoverage: Which certificates the lists must cover (default ``ListCoverage/whereHeld``).
    ///   - stapling: What happens to stapled OCSP responses (default ``Stapling/off``).
    public init(
        revocationLists: [CertificateRevocationList] = [], listCoverage: ListCoverage = .whereHeld, stapling: Stapling = .off
    ) {
        self.revocationLists = revocationLists
        self.listCoverage = listCoverage
        self.stapling = stapling
    }

    /// No revocation checking: the default.
    public static let off = RevocationPolicy()

    /// Whether the policy checks anything.
    public var isOff: Bool { revocationLists.isEmpty && listCoverage == .whereHeld && stapling == .off }

    public var description: String {
        isOff ? "off" : "lists \(revocationLists.count) (\(listCoverage.rawValue)), stapling \(stapling.rawValue)"
    }
}
