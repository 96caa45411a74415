import CertificateRules
import Foundation
import NetworkCore
import SwiftASN1
import X509

/// Checks a verified path against the revocation lists a policy holds, as the reference stack's OpenSSL does with
/// `X509_V_FLAG_CRL_CHECK_ALL`: for every certificate, the trust anchor included, the best list from its issuer is
/// chosen as OpenSSL scores lists, then checked in OpenSSL's order (the issuer's key usage, the list's scope, its
/// dates, its signature, its critical extensions, the serial number); the policy's coverage says which certificates
/// may have no list at all. Failures carry OpenSSL's codes.
///
/// Stapled OCSP responses are not checked: swift-nio-ssl cannot ask a server for one. A policy that requires a staple
/// therefore refuses every server, and a must-staple leaf (RFC 7633) is refused, as a stack that asked and got none.
struct RevocationListCheck: Sendable {

    let policy: RevocationPolicy
    private let lists: [HeldRevocationList]
    /// How many held lists this reader could not read: any refuses every chain, as a list left out could be the one
    /// that revokes it.
    private let unreadable: Int

    /// `nil` when the policy checks nothing.
    init?(_ policy: RevocationPolicy) {
        guard !policy.isOff else { return nil }
        self.policy = policy
        let read = policy.revocationLists.map { HeldRevocationList(der: $0.der) }
        lists = read.compactMap { $0 }
        unreadable = read.count - lists.count
    }

    /// The refusal of a verified path (leaf first, trust anchor last, as the user trusted it) at `time`, or `nil`.
    func refusal(of path: [Certificate], at time: Date) -> ChainValidationFailure? {
        guard unreadable == 0 else {
            return Self.failure(
                .invalidRevocationData, code: 1, "\(unreadable) held revocation list(s) could not be read (not DER)", depth: 0)
        }
        for (depth, certificate) in path.enumerated() {
            // The anchor's lists are checked with its own key (OpenSSL's current_issuer for the last certificate).
            let issuer = depth + 1 < path.count ? path[depth + 1] : certificate
            if let refusal = refusal(of: certificate, issuedBy: issuer, depth: depth, at: time) { return refusal }
        }
        return staplingRefusal(leaf: path.first)
    }

    /// A held list as OpenSSL's `get_crl_score` weighs it for one certificate.
    private struct Candidate {
        let list: HeldRevocationList
        let isCurrent: Bool
        let inScope: Bool
        let someReasons: Bool
        var score: Int { (list.hasUnhandledCriticalExtension ? 0 : 0x100) + (inScope ? 0x80 : 0) + (isCurrent ? 0x40 : 0) }
    }

    private func refusal(of certificate: Certificate, issuedBy issuer: Certificate, depth: Int, at time: Date)
        -> ChainValidationFailure?
    {
        let fromIssuer = lists.filter { $0.issuer.isSameName(as: certificate.issuer) }
        let candidates = fromIssuer.filter { !$0.scope.needsExtendedSupport && Self.authorityKeyMatches($0, issuer) }.map { list in
            let scope = Self.scope(of: list, for: certificate)
            return Candidate(list: list, isCurrent: Self.isCurrent(list, at: time), inScope: scope.inScope, someReasons: scope.someReasons)
        }
        // The highest score; between equals, the later thisUpdate.
        guard let best = candidates.max(by: { ($0.score, $0.list.thisUpdate) < ($1.score, $1.list.thisUpdate) }) else {
            // No list to use. One from the issuer's name that cannot be used never lets the certificate through.
            let coverageLetsPass: Bool =
                switch policy.listCoverage {
                case .whereHeld: true
                case .leaf: depth > 0
                case .chain: false
                }
            return fromIssuer.isEmpty && coverageLetsPass
                ? nil : Self.failure(.revocationUnavailable, code: 3, "unable to get certificate CRL", depth: depth)
        }
        let list = best.list
        if let usage = try? issuer.extensions.keyUsage, !usage.cRLSign {
            return Self.failure(.invalidRevocationData, code: 35, "key usage does not include CRL signing", depth: depth)
        }
        guard best.inScope else { return Self.failure(.invalidRevocationData, code: 44, "Different CRL scope", depth: depth) }
        guard best.isCurrent else {
            return list.thisUpdate > time
                ? Self.failure(.invalidRevocationData, code: 11, "CRL is not yet valid", depth: depth)
                : Self.failure(.invalidRevocationData, code: 12, "CRL has expired", depth: depth)
        }
        guard list.isSigned(by: issuer) else { return Self.failure(.invalidRevocationData, code: 8, "CRL signature failure", depth: depth) }
        if list.hasUnhandledCriticalExtension {
            return Self.failure(.invalidRevocationData, code: 36, "unhandled critical CRL extension", depth: depth)
        }
        if list.revokedSerials.contains(CertificateFacts.derContent(ofMagnitude: certificate.serialNumber.bytes)) {
            return Self.failure(.revoked, code: 23, "certificate revoked", depth: depth)
        }
        // A distribution point for some reasons only leaves the others unchecked: OpenSSL then has no list for them.
        if best.someReasons {
            return Self.failure(.revocationUnavailable, code: 3, "unable to get certificate CRL", depth: depth)
        }
        return nil
    }

    /// From its thisUpdate (inclusive) to its nextUpdate (exclusive), as OpenSSL's `check_crl_time`.
    private static func isCurrent(_ list: HeldRevocationList, at time: Date) -> Bool {
        list.thisUpdate <= time && list.nextUpdate.map { time < $0 } ?? true
    }

    /// OpenSSL's `X509_check_akid`: the list's authorityKeyIdentifier, where it names a key or a serial, names the issuer's.
    private static func authorityKeyMatches(_ list: HeldRevocationList, _ issuer: Certificate) -> Bool {
        if let keyIdentifier = list.authorityKeyIdentifier,
            let subjectKeyIdentifier = try? issuer.extensions.subjectKeyIdentifier,
            Array(subjectKeyIdentifier.keyIdentifier) != keyIdentifier
        {
            return false
        }
        if let serial = list.authoritySerialNumber, serial != CertificateFacts.derContent(ofMagnitude: issuer.serialNumber.bytes) {
            return false
        }
        return true
    }

    /// OpenSSL's `crl_crldp_check`: whether the list's scope takes in the certificate, and whether the distribution
    /// point that matched it is for some reasons only.
    private static func scope(of list: HeldRevocationList, for certificate: Certificate) -> (inScope: Bool, someReasons: Bool) {
        let scope = list.scope
        guard !scope.onlyAttributeCertificates else { return (false, false) }
        let isCA =
            (try? certificate.extensions.basicConstraints).map { if case .isCertificateAuthority = $0 { true } else { false } } ?? false
        if isCA ? scope.onlyUserCertificates : scope.onlyCACertificates { return (false, false) }
        for point in distributionPoints(of: certificate)
        where point.crlIssuers.isEmpty || point.crlIssuers.contains(where: { $0.isSameName(as: list.issuer) }) {
            if case .fullName(let names) = scope.point {
                // A point of the certificate's that names nothing matches any; a full name must share a GeneralName.
                switch point.name {
                case .none: break
                case .fullName(let own) where !own.isDisjoint(with: names): break
                default: continue
                }
            } else if case .unmatchable = scope.point {
                // A name relative to the issuer is matched by a point that names nothing only.
                guard case .none = point.name else { continue }
            }
            return (true, point.hasReasons)
        }
        guard case .none = scope.point else { return (false, false) }
        return (true, false)
    }

    /// A cRLDistributionPoints entry: its distribution point's name, whether it limits the reasons, its cRLIssuer names.
    private struct DistributionPoint {
        var name = HeldRevocationList.Scope.Point.none
        var hasReasons = false
        var crlIssuers: [DistinguishedName] = []
    }

    private static func distributionPoints(of certificate: Certificate) -> [DistributionPoint] {
        guard let ext = certificate.extensions[oid: cRLDistributionPoints],
            case .constructed(let points)? = try? DER.parse(ext.value).content
        else { return [] }
        return points.map { point in
            var read = DistributionPoint()
            guard case .constructed(let fields) = point.content else { return read }
            for field in fields where field.identifier.tagClass == .contextSpecific {
                switch field.identifier.tagNumber {
                case 0: read.name = HeldRevocationList.fullNames(field).map { .fullName($0) } ?? .unmatchable
                case 1: read.hasReasons = true
                case 2:
                    guard case .constructed(let names) = field.content else { continue }
                    read.crlIssuers = names.compactMap { name in
                        // directoryName [4] EXPLICIT Name
                        guard name.identifier == ASN1Identifier(tagWithNumber: 4, tagClass: .contextSpecific),
                            case .constructed(let inner) = name.content, let node = inner.first(where: { _ in true })
                        else { return nil }
                        return try? DistinguishedName(derEncoded: node)
                    }
                default: break
                }
            }
            return read
        }
    }

    private func staplingRefusal(leaf: Certificate?) -> ChainValidationFailure? {
        switch policy.stapling {
        case .off: return nil
        case .required:
            return Self.failure(.revocationUnavailable, code: 1, "the stack cannot ask for a stapled OCSP response", depth: 0)
        case .checkedWhenStapled:
            guard let leaf, Self.demandsStaple(leaf) else { return nil }
            return Self.failure(
                .revocationUnavailable, code: 1, "a must-staple certificate, and the stack cannot ask for a staple", depth: 0)
        }
    }

    /// Whether the leaf carries the TLS feature extension (RFC 7633) with status_request (5).
    private static func demandsStaple(_ leaf: Certificate) -> Bool {
        guard let ext = leaf.extensions[oid: tlsFeature], case .constructed(let features)? = try? DER.parse(ext.value).content else {
            return false
        }
        return features.contains { (try? Int(derEncoded: $0)) == 5 }
    }

    private static let cRLDistributionPoints: ASN1ObjectIdentifier = [2, 5, 29, 31]
    private static let tlsFeature: ASN1ObjectIdentifier = [1, 3, 6, 1, 5, 5, 7, 1, 24]

    private static func failure(_ kind: ChainValidationFailure.Kind, code: Int, _ reason: String, depth: Int) -> ChainValidationFailure {
        ChainValidationFailure(kind: kind, code: code, reason: reason, depth: depth)
    }
}
