import Foundation
import CertificateRules
import NetworkCore
import SwiftASN1
import X509

/// Checks a verified path against the revocation lists a policy holds, as the reference stack's OpenSSL does with
/// `X509_V_FLAG_CRL_CHECK_ALL`: every certificate, the trust anchor included, is looked up in a current list from its
/// issuer that covers it; the policy's coverage says which certificates may have none.
///
/// Stapled OCSP responses are not checked: swift-nio-ssl cannot ask a server for one. A policy that requires a staple
/// therefore refuses every server, and a must-staple leaf (RFC 7633) is refused, as a stack that asked and got none.
struct RevocationListCheck: Sendable {

    let policy: RevocationPolicy
    private let lists: [HeldRevocationList]

    /// `nil` when the policy checks nothing.
    init?(_ policy: RevocationPolicy) {
        guard !policy.isOff else { return nil }
        self.policy = policy
        // The loaders parsed every list already: one this reader cannot read is left out, so that a coverage that
        // needs it refuses the chain for want of a list, never accepts it.
        lists = policy.revocationLists.compactMap { HeldRevocationList(der: $0.der) }
    }

    /// The refusal of a verified path (leaf first, anchor last) at `time`, or `nil`.
    func refusal(of path: [Certificate], at time: Date) -> ChainValidationFailure? {
        for (depth, certificate) in path.enumerated() {
            let issuer = depth + 1 < path.count ? path[depth + 1] : certificate
            if let refusal = refusal(of: certificate, issuedBy: issuer, depth: depth, isAnchor: depth == path.count - 1, at: time) {
                return refusal
            }
        }
        return staplingRefusal(leaf: path.first)
    }

    private func refusal(of certificate: Certificate, issuedBy issuer: Certificate, depth: Int, isAnchor: Bool, at time: Date)
        -> ChainValidationFailure?
    {
        let fromIssuer = lists.filter { $0.issuer.isSameName(as: certificate.issuer) }
        let covering = fromIssuer.filter { covers($0, certificate) }
        guard !covering.isEmpty else {
            // A list from the issuer that cannot speak for the certificate never lets it through for want of a list.
            let coverageLetsPass: Bool =
                switch policy.listCoverage {
                case .whereHeld: true
                case .leaf: depth > 0
                case .chain: false
                }
            return fromIssuer.isEmpty && coverageLetsPass
                ? nil : Self.failure(.revocationUnavailable, code: 3, "unable to get certificate CRL", depth: depth)
        }
        // As OpenSSL scores lists: a current one first, then the failure of the best of the rest.
        let current = covering.filter { $0.thisUpdate <= time && $0.nextUpdate.map { time <= $0 } ?? true }
        guard let list = current.first else {
            return covering[0].thisUpdate > time
                ? Self.failure(.invalidRevocationData, code: 11, "CRL is not yet valid", depth: depth)
                : Self.failure(.invalidRevocationData, code: 12, "CRL has expired", depth: depth)
        }
        // A self-issued anchor signs its own list; an anchor with another issuer has no issuer here to verify one.
        if isAnchor, !certificate.subject.isSameName(as: certificate.issuer) {
            return Self.failure(.invalidRevocationData, code: 33, "unable to get CRL issuer certificate", depth: depth)
        }
        if let usage = try? issuer.extensions.keyUsage, !usage.cRLSign {
            return Self.failure(.invalidRevocationData, code: 35, "key usage does not include CRL signing", depth: depth)
        }
        guard list.isSigned(by: issuer) else {
            return Self.failure(.invalidRevocationData, code: 8, "CRL signature failure", depth: depth)
        }
        if list.unhandledCriticalExtension != nil {
            return Self.failure(.invalidRevocationData, code: 36, "unhandled critical CRL extension", depth: depth)
        }
        if list.revokedSerials.contains(CertificateFacts.derContent(ofMagnitude: certificate.serialNumber.bytes)) {
            return Self.failure(.revoked, code: 23, "certificate revoked", depth: depth)
        }
        return nil
    }

    /// Whether a list can show the certificate unrevoked: a full list (no delta) for every reason, whose scope takes in
    /// the certificate (RFC 5280 5.2.5, as OpenSSL reads it).
    private func covers(_ list: HeldRevocationList, _ certificate: Certificate) -> Bool {
        let scope = list.scope
        guard !list.isDelta, !scope.coversNoServerCertificate else { return false }
        let isCA =
            (try? certificate.extensions.basicConstraints).map { if case .isCertificateAuthority = $0 { true } else { false } } ?? false
        if isCA ? scope.onlyUserCertificates : scope.onlyCACertificates { return false }
        guard !scope.distributionPointNames.isEmpty else { return true }
        return !Self.distributionPointNames(of: certificate).isDisjoint(with: scope.distributionPointNames)
    }

    /// The fullName GeneralNames of the certificate's CRL distribution points that name no other CRL issuer, each as its DER.
    private static func distributionPointNames(of certificate: Certificate) -> Set<[UInt8]> {
        guard let ext = certificate.extensions[oid: cRLDistributionPoints],
            case .constructed(let points)? = try? DER.parse(ext.value).content
        else { return [] }
        var names: Set<[UInt8]> = []
        for point in points {
            guard case .constructed(let fields) = point.content else { continue }
            let tagged = Array(fields)
            // A point whose lists another issuer signs (cRLIssuer, [2]) is not this issuer's list.
            guard !tagged.contains(where: { $0.identifier.tagNumber == 2 }) else { continue }
            for field in tagged where field.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                names.formUnion(HeldRevocationList.fullNames(field))
            }
        }
        return names
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
