import CertificateRules
import Foundation
import NetworkCore
import SwiftASN1
import X509

/// A revocation list the user holds (RFC 5280 section 5), read once with SwiftASN1: swift-certificates reads
/// certificates and OCSP responses, not lists. What it keeps is what OpenSSL's list check reads.
struct HeldRevocationList: Sendable {

    /// The issuingDistributionPoint extension (RFC 5280 5.2.5): which certificates the list speaks for.
    struct Scope: Sendable {
        /// The distribution point the list is for.
        enum Point: Sendable {
            /// None named: the list is its issuer's whole list.
            case none
            /// The GeneralNames of a fullName, each as its DER.
            case fullName(Set<[UInt8]>)
            /// A name relative to the issuer, or one this reader cannot read: no certificate's point matches it.
            case unmatchable
        }
        var point = Point.none
        var onlyUserCertificates = false
        var onlyCACertificates = false
        var onlyAttributeCertificates = false
        /// onlySomeReasons, or indirectCRL: a list OpenSSL does not choose without extended list support.
        var needsExtendedSupport = false
    }

    let issuer: DistinguishedName
    let thisUpdate: Date
    let nextUpdate: Date?
    /// The serial numbers listed as revoked (not those an entry says were removed), as the DER content of their INTEGERs.
    let revokedSerials: Set<[UInt8]>
    let scope: Scope
    /// A critical extension of the list or of an entry that OpenSSL does not handle: such a list proves nothing.
    let hasUnhandledCriticalExtension: Bool
    /// The authorityKeyIdentifier's keyIdentifier and authorityCertSerialNumber, when present.
    let authorityKeyIdentifier: [UInt8]?
    let authoritySerialNumber: [UInt8]?
    private(set) var signatureAlgorithm: Certificate.SignatureAlgorithm?
    private(set) var signature: [UInt8] = []
    private(set) var signedBytes: [UInt8] = []

    /// Whether the list was signed by `issuer`'s key.
    func isSigned(by issuer: Certificate) -> Bool {
        guard let signatureAlgorithm else { return false }
        return issuer.publicKey.isValidSignature(signature, for: signedBytes, signatureAlgorithm: signatureAlgorithm)
    }
}

extension HeldRevocationList {

    /// Reads a list's DER; `nil` when this reader cannot (the loaders in `Pinning` parsed it with OpenSSL, which
    /// takes some encodings DER forbids).
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
        guard case .constructed(let fields) = tbs.content else { throw ASN1Error.invalidASN1Object(reason: "TBSCertList") }
        var nodes = fields.makeIterator()
        var field = nodes.next()
        if field?.identifier == .integer { field = nodes.next() }  // version v2
        guard field != nil, let issuerNode = nodes.next(), let thisUpdateNode = nodes.next() else {
            throw ASN1Error.invalidASN1Object(reason: "TBSCertList")
        }
        var next = nodes.next()
        var nextUpdate: Date?
        if let node = next, node.identifier == .utcTime || node.identifier == .generalizedTime {
            nextUpdate = try date(node)
            next = nodes.next()
        }
        var revoked: Set<[UInt8]> = []
        var critical = false
        if let node = next, node.identifier == .sequence {
            guard case .constructed(let entries) = node.content else { throw ASN1Error.invalidASN1Object(reason: "revokedCertificates") }
            for entry in entries {
                let read = try readEntry(entry)
                if !read.removed { revoked.insert(read.serial) }
                critical = critical || read.critical
            }
            next = nodes.next()
        }
        var scope = Scope()
        var keyIdentifier: [UInt8]?
        var authoritySerial: [UInt8]?
        if let node = next, node.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) {
            guard case .constructed(let wrapped) = node.content, let sequence = wrapped.first(where: { _ in true }) else {
                throw ASN1Error.invalidASN1Object(reason: "crlExtensions")
            }
            for ext in try extensions(sequence) {
                switch ext.oid {
                case issuingDistributionPoint: scope = try Self.scope(ext.value)
                case authorityKeyIdentifierOID: (keyIdentifier, authoritySerial) = try authorityKey(ext.value)
                // OpenSSL handles these two when critical; a delta list is refused by the loaders.
                case deltaCRLIndicator: break
                default: critical = critical || ext.critical
                }
            }
        }
        return HeldRevocationList(
            issuer: try DistinguishedName(derEncoded: issuerNode), thisUpdate: try date(thisUpdateNode), nextUpdate: nextUpdate,
            revokedSerials: revoked, scope: scope, hasUnhandledCriticalExtension: critical, authorityKeyIdentifier: keyIdentifier,
            authoritySerialNumber: authoritySerial)
    }

    /// An entry's serial, whether its reason is removeFromCRL (8), and whether it has a critical extension OpenSSL does
    /// not handle (any but certificateIssuer).
    private static func readEntry(_ entry: ASN1Node) throws -> (serial: [UInt8], removed: Bool, critical: Bool) {
        guard case .constructed(let fields) = entry.content else { throw ASN1Error.invalidASN1Object(reason: "revokedCertificate") }
        var nodes = fields.makeIterator()
        guard let serial = nodes.next(), serial.identifier == .integer, case .primitive(let octets) = serial.content, nodes.next() != nil
        else { throw ASN1Error.invalidASN1Object(reason: "revokedCertificate") }
        var removed = false
        var critical = false
        if let node = nodes.next() {
            for ext in try extensions(node) {
                if ext.oid == reasonCode, case .primitive(let value)? = try? DER.parse(ext.value).content, value == [8] { removed = true }
                if ext.critical, ext.oid != certificateIssuer { critical = true }
            }
        }
        return (Array(octets), removed, critical)
    }

    /// Extensions read as OpenSSL reads them: a `critical` written out as FALSE, or as any non-zero octet for TRUE, is
    /// taken, though DER forbids both.
    private static func extensions(_ node: ASN1Node) throws -> [(oid: ASN1ObjectIdentifier, critical: Bool, value: ArraySlice<UInt8>)] {
        guard case .constructed(let items) = node.content else { throw ASN1Error.invalidASN1Object(reason: "Extensions") }
        return try items.map { item in
            guard case .constructed(let parts) = item.content else { throw ASN1Error.invalidASN1Object(reason: "Extension") }
            var nodes = parts.makeIterator()
            guard let oidNode = nodes.next(), var valueNode = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "Extension") }
            var critical = false
            if valueNode.identifier == .boolean, case .primitive(let flag) = valueNode.content {
                critical = flag.contains { $0 != 0 }
                guard let next = nodes.next() else { throw ASN1Error.invalidASN1Object(reason: "Extension") }
                valueNode = next
            }
            guard valueNode.identifier == .octetString, case .primitive(let value) = valueNode.content else {
                throw ASN1Error.invalidASN1Object(reason: "Extension")
            }
            return (try ASN1ObjectIdentifier(derEncoded: oidNode), critical, value)
        }
    }

    private static func scope(_ value: ArraySlice<UInt8>) throws -> Scope {
        var scope = Scope()
        guard case .constructed(let fields) = try DER.parse(value).content else { throw ASN1Error.invalidASN1Object(reason: "IDP") }
        for field in fields where field.identifier.tagClass == .contextSpecific {
            let isTrue: Bool = if case .primitive(let octets) = field.content { octets.contains { $0 != 0 } } else { false }
            switch field.identifier.tagNumber {
            case 0: scope.point = fullNames(field).map { .fullName($0) } ?? .unmatchable
            case 1: scope.onlyUserCertificates = isTrue
            case 2: scope.onlyCACertificates = isTrue
            case 3: scope.needsExtendedSupport = true  // onlySomeReasons
            case 4: scope.needsExtendedSupport = scope.needsExtendedSupport || isTrue  // indirectCRL
            case 5: scope.onlyAttributeCertificates = isTrue
            default: break
            }
        }
        return scope
    }

    /// The GeneralNames of a DistributionPointName's fullName ([0]), each as its DER; `nil` for a name relative to the
    /// issuer ([1]) or an empty fullName, which nothing is matched with here.
    static func fullNames(_ distributionPointName: ASN1Node) -> Set<[UInt8]>? {
        guard case .constructed(let choices) = distributionPointName.content,
            let choice = choices.first(where: { _ in true }),
            choice.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific),
            case .constructed(let names) = choice.content
        else { return nil }
        let set = Set(names.map { Array($0.encodedBytes) })
        return set.isEmpty ? nil : set
    }

    /// The keyIdentifier ([0]) and authorityCertSerialNumber ([2]) of an authorityKeyIdentifier.
    private static func authorityKey(_ value: ArraySlice<UInt8>) throws -> ([UInt8]?, [UInt8]?) {
        guard case .constructed(let fields) = try DER.parse(value).content else { throw ASN1Error.invalidASN1Object(reason: "AKID") }
        var keyIdentifier: [UInt8]?
        var serial: [UInt8]?
        for field in fields where field.identifier.tagClass == .contextSpecific {
            guard case .primitive(let octets) = field.content else { continue }
            if field.identifier.tagNumber == 0 { keyIdentifier = Array(octets) }
            if field.identifier.tagNumber == 2 { serial = Array(octets) }
        }
        return (keyIdentifier, serial)
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
    private static let authorityKeyIdentifierOID: ASN1ObjectIdentifier = [2, 5, 29, 35]
    private static let reasonCode: ASN1ObjectIdentifier = [2, 5, 29, 21]
    private static let certificateIssuer: ASN1ObjectIdentifier = [2, 5, 29, 29]

    /// The algorithms swift-certificates verifies; a list signed otherwise (RSA-PSS) fails its signature check.
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
