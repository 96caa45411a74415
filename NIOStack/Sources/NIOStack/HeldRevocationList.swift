import Foundation
import CertificateRules
import NetworkCore
import SwiftASN1
import X509

/// A revocation list the user holds (RFC 5280 section 5), read once with SwiftASN1: swift-certificates reads
/// certificates and OCSP responses, not lists.
struct HeldRevocationList: Sendable {

    /// Which certificates the list speaks for, from its issuingDistributionPoint extension (RFC 5280 5.2.5).
    struct Scope: Sendable {
        var onlyUserCertificates = false
        var onlyCACertificates = false
        /// Attribute certificates only, some reasons only, or another issuer's certificates too (an indirect list):
        /// never a proof that a server's certificate is unrevoked.
        var coversNoServerCertificate = false
        /// The distribution point names the list is for (each a GeneralName's DER); empty when the list names none.
        var distributionPointNames: Set<[UInt8]> = []
    }

    let issuer: DistinguishedName
    let thisUpdate: Date
    let nextUpdate: Date?
    /// The serial numbers listed, as the DER content of their INTEGERs.
    let revokedSerials: Set<[UInt8]>
    let scope: Scope
    /// A delta list (RFC 5280 5.2.4) lists only what changed since a base list: not used, as OpenSSL does unless asked.
    let isDelta: Bool
    /// The OID of a critical extension the list carries and this reader does not handle, if any.
    let unhandledCriticalExtension: String?
    private(set) var signatureAlgorithm: Certificate.SignatureAlgorithm?
    private(set) var signature: [UInt8] = []
    private(set) var signedBytes: [UInt8] = []

    /// Whether the list was issued by the key that certified `issuer` under its name.
    func isSigned(by issuer: Certificate) -> Bool {
        guard let signatureAlgorithm else { return false }
        return issuer.publicKey.isValidSignature(signature, for: signedBytes, signatureAlgorithm: signatureAlgorithm)
    }
}

extension HeldRevocationList {

    /// Reads a list's DER; `nil` when it is not a list (the loaders in `Pinning` have parsed it already).
    init?(der: [UInt8]) {
        guard let parsed = try? Self.read(DER.parse(der)) else { return nil }
        self = parsed
    }

    private static func read(_ root: ASN1Node) throws -> HeldRevocationList {
        try DER.sequence(root, identifier: .sequence) { nodes in
            guard let tbs = nodes.next(), let algorithm = nodes.next(), let signature = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "CertificateList")
            }
            var list = try readTBS(tbs)
            list.signatureAlgorithm = try signatureAlgorithm(algorithm)
            list.signature = Array(try ASN1BitString(derEncoded: signature).bytes)
            list.signedBytes = Array(tbs.encodedBytes)
            return list
        }
    }

    private static func readTBS(_ tbs: ASN1Node) throws -> HeldRevocationList {
        try DER.sequence(tbs, identifier: .sequence) { nodes in
            var field = nodes.next()
            if field?.identifier == .integer { field = nodes.next() }  // version v2
            guard field != nil, let issuerNode = nodes.next(), let thisUpdateNode = nodes.next() else {
                throw ASN1Error.invalidASN1Object(reason: "TBSCertList")
            }
            let issuer = try DistinguishedName(derEncoded: issuerNode)
            let thisUpdate = try date(thisUpdateNode)
            var next = nodes.next()
            var nextUpdate: Date?
            if let node = next, node.identifier == .utcTime || node.identifier == .generalizedTime {
                nextUpdate = try date(node)
                next = nodes.next()
            }
            var revoked: Set<[UInt8]> = []
            if let node = next, node.identifier == .sequence {
                guard case .constructed(let entries) = node.content else {
                    throw ASN1Error.invalidASN1Object(reason: "revokedCertificates")
                }
                for entry in entries {
                    guard case .constructed(let fields) = entry.content, let serial = fields.first(where: { _ in true }),
                        serial.identifier == .integer, case .primitive(let octets) = serial.content
                    else { throw ASN1Error.invalidASN1Object(reason: "revokedCertificate") }
                    revoked.insert(Array(octets))
                }
                next = nodes.next()
            }
            var scope = Scope()
            var isDelta = false
            var unhandled: String?
            if let node = next, node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
                for ext in try extensions(node) {
                    switch ext.oid {
                    case Self.issuingDistributionPoint: scope = try Self.scope(ext.value)
                    case Self.deltaCRLIndicator: isDelta = true
                    case .X509ExtensionID.authorityKeyIdentifier: break
                    default: if ext.critical, unhandled == nil { unhandled = CertificateFacts.dotted(ext.oid) }
                    }
                }
            }
            return HeldRevocationList(
                issuer: issuer, thisUpdate: thisUpdate, nextUpdate: nextUpdate, revokedSerials: revoked, scope: scope, isDelta: isDelta,
                unhandledCriticalExtension: unhandled)
        }
    }

    private static func extensions(_ node: ASN1Node) throws -> [Certificate.Extension] {
        guard case .constructed(let wrapped) = node.content, let sequence = wrapped.first(where: { _ in true }),
            case .constructed(let items) = sequence.content
        else { throw ASN1Error.invalidASN1Object(reason: "crlExtensions") }
        return try items.map { try Certificate.Extension(derEncoded: $0) }
    }

    private static func scope(_ value: ArraySlice<UInt8>) throws -> Scope {
        var scope = Scope()
        guard case .constructed(let fields) = try DER.parse(value).content else { throw ASN1Error.invalidASN1Object(reason: "IDP") }
        for field in fields where field.identifier.tagClass == .contextSpecific {
            let isTrue: Bool = if case .primitive(let octets) = field.content { octets.first.map { $0 != 0 } ?? false } else { false }
            switch field.identifier.tagNumber {
            case 0: scope.distributionPointNames = fullNames(field)
            case 1: scope.onlyUserCertificates = isTrue
            case 2: scope.onlyCACertificates = isTrue
            case 3: scope.coversNoServerCertificate = true  // onlySomeReasons
            case 4, 5: scope.coversNoServerCertificate = scope.coversNoServerCertificate || isTrue
            default: break
            }
        }
        return scope
    }

    /// The GeneralNames of a DistributionPointName's fullName ([0]), each as its DER; empty for a name relative to the
    /// issuer, which no served certificate can be matched with here.
    static func fullNames(_ distributionPointName: ASN1Node) -> Set<[UInt8]> {
        guard case .constructed(let choices) = distributionPointName.content else { return [] }
        for choice in choices where choice.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            guard case .constructed(let names) = choice.content else { return [] }
            return Set(names.map { Array($0.encodedBytes) })
        }
        return []
    }

    private static func signatureAlgorithm(_ node: ASN1Node) throws -> Certificate.SignatureAlgorithm? {
        let oid = try DER.sequence(node, identifier: .sequence) { nodes -> ASN1ObjectIdentifier in
            guard let first = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "AlgorithmIdentifier") }
            while nodes.next() != nil {}
            return try ASN1ObjectIdentifier(derEncoded: first)
        }
        return knownAlgorithms[CertificateFacts.dotted(oid)]
    }

    private static let issuingDistributionPoint: ASN1ObjectIdentifier = [2, 5, 29, 28]
    private static let deltaCRLIndicator: ASN1ObjectIdentifier = [2, 5, 29, 27]

    private static let knownAlgorithms: [String: Certificate.SignatureAlgorithm] = [
        "1.2.840.10045.4.3.2": .ecdsaWithSHA256, "1.2.840.10045.4.3.3": .ecdsaWithSHA384, "1.2.840.10045.4.3.4": .ecdsaWithSHA512,
        "1.2.840.113549.1.1.5": .sha1WithRSAEncryption, "1.2.840.113549.1.1.11": .sha256WithRSAEncryption,
        "1.2.840.113549.1.1.12": .sha384WithRSAEncryption, "1.2.840.113549.1.1.13": .sha512WithRSAEncryption,
        "1.3.101.112": .ed25519,
    ]

    private static func date(_ node: ASN1Node) throws -> Date {
        let parts: (year: Int, month: Int, day: Int, hours: Int, minutes: Int, seconds: Int)
        switch node.identifier {
        case .utcTime:
            let time = try UTCTime(derEncoded: node)
            parts = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        case .generalizedTime:
            let time = try GeneralizedTime(derEncoded: node)
            parts = (time.year, time.month, time.day, time.hours, time.minutes, time.seconds)
        default: throw ASN1Error.invalidASN1Object(reason: "Time")
        }
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let components = DateComponents(
            year: parts.year, month: parts.month, day: parts.day, hour: parts.hours, minute: parts.minutes, second: parts.seconds)
        guard let date = calendar.date(from: components) else { throw ASN1Error.invalidASN1Object(reason: "Time") }
        return date
    }
}
