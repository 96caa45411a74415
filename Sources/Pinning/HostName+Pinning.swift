import Foundation
import NetworkCore

/// Host-name rules of the pinning handlers (docs/spec/trust.md, PIN-7 to PIN-10), over NetworkCore's normal form
/// (`HostName.normalized(_:)`: lowercase, one trailing dot removed, as DNS names are case-insensitive and
/// `example.test.` is the same name as `example.test`). Subdomains are matched on whole labels (`api.example.test` is
/// under `example.test`; `xexample.test` and `example.test.evil` are not), and never upwards: a policy never covers a
/// parent of its domain.
extension HostName {

    /// Whether `host` (normalized) is a proper subdomain of `domain` (normalized): it ends with `.domain`
    /// and what comes before is one or more non-empty labels.
    package static func isProperSubdomain(_ host: String, of domain: String) -> Bool {
        guard host.count > domain.count + 1, host.hasSuffix("." + domain) else { return false }
        let prefix = host.dropLast(domain.count + 1)
        return !prefix.split(separator: ".", omittingEmptySubsequences: false).contains(where: \.isEmpty)
    }

    /// Whether a name is an IPv4 or IPv6 literal (without brackets).
    package static func isIPAddress(_ name: String) -> Bool { IPAddressLiteral.bytes(of: name) != nil }

    /// Why a configured domain name is unusable, or `nil` if it is fine. `includeSubdomains` matters because
    /// an IP address has no subdomains.
    package static func problem(with domain: String, includeSubdomains: Bool) -> ServerTrustEvaluator.DomainNameProblem? {
        if domain.isEmpty { return .empty }
        if domain.unicodeScalars.contains(where: {
            CharacterSet.whitespacesAndNewlines.contains($0) || CharacterSet.controlCharacters.contains($0)
        }) {
            return .whitespace
        }
        if domain.contains("://") { return .scheme }
        if domain.contains(where: { "/?#@".contains($0) }) { return .path }
        if domain.contains("*") { return .wildcard }
        let name = normalized(domain)
        if isIPAddress(name) { return includeSubdomains ? .ipAddressWithSubdomains : nil }
        if name.contains(":") { return .port }
        if name.isEmpty { return .empty }
        guard name.utf8.count <= 253 else { return .tooLong }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        for label in labels {
            if label.isEmpty { return .emptyLabel }
            if label.utf8.count > 63 { return .tooLong }
            let allowed = label.unicodeScalars.allSatisfy { scalar in
                scalar.isASCII && (CharacterSet.alphanumerics.contains(scalar) || scalar == "-" || scalar == "_")
            }
            if !allowed || label.hasPrefix("-") || label.hasSuffix("-") { return .invalidCharacter }
        }
        // A single label is a top-level domain (`com`): a policy on it would pin a whole registry. `localhost`
        // is the one single-label name that names a host (RFC 6761).
        if labels.count == 1, name != "localhost" { return .topLevelDomain }
        return nil
    }
}
