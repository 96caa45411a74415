import CertificateRules
import SwiftASN1
import X509

extension CertificateFacts {

    /// The facts of one certificate of a chain, as the NIO stack reads them with swift-certificates and SwiftASN1:
    /// what swift-certificates leaves undecoded (key sizes, name-constraint distances, a pathLenConstraint it refuses
    /// to parse, policies) is read from the DER here. The reference stack reads the same facts with OpenSSL; the two
    /// readings of every fixture are compared in this package's tests.
    public init(swiftCertificates certificate: Certificate, depth: Int) {
        let extensions = certificate.extensions
        let basicConstraints = extensions[oid: .X509ExtensionID.basicConstraints].flatMap { Self.basicConstraints($0.value) }
        let isCA = basicConstraints?.isCA ?? false
        let keyUsage = extensions[oid: .X509ExtensionID.keyUsage].map { ExtensionShapes.keyCertSign($0.value) }
        let subjectAltNames = extensions[oid: .X509ExtensionID.subjectAlternativeName].flatMap { Self.subjectAltNames($0.value) }
        self.init(
            depth: depth, version: Self.version(certificate.version), isCA: isCA,
            // OpenSSL reads a pathLenConstraint beside cA=FALSE as 0: the facts say so on both stacks.
            pathLengthConstraint: basicConstraints?.pathLength.map { isCA ? $0 : 0 }, keyUsageAllowsCertificateSigning: keyUsage,
            serialNumber: Self.derContent(ofMagnitude: certificate.serialNumber.bytes), publicKey: Self.publicKey(certificate),
            extensions: extensions.map {
                ExtensionFacts(oid: Self.dotted($0.oid), isCritical: $0.critical, isWellFormed: Self.decodes($0))
            },
            extendedKeyUsage: Self.extendedKeyUsage(extensions),
            authorityKeyIdentifierHasKeyIdentifier: extensions[oid: .X509ExtensionID.authorityKeyIdentifier].map {
                ExtensionShapes.hasKeyIdentifier($0.value)
            },
            subjectCommonNames: certificate.subject.flatMap { $0 }.filter { $0.type == .RDNAttributeType.commonName }.map(
                DistinguishedName.text(of:)),
            subjectIsEmpty: certificate.subject.allSatisfy { $0.isEmpty }, issuerIsEmpty: certificate.issuer.allSatisfy { $0.isEmpty },
            isSelfIssued: certificate.subject.isSameName(as: certificate.issuer),
            subjectAltNameIsEmpty: subjectAltNames?.count == 0,
            signatureAlgorithmsMatch: Self.signatureAlgorithmsMatch(certificate),
            subjectAltDNSNames: subjectAltNames?.dns ?? [], subjectAltIPAddresses: subjectAltNames?.ip ?? [],
            nameConstraints: extensions[oid: .X509ExtensionID.nameConstraints].map(Self.nameConstraints))
    }

    /// The version's number (1 for v1), v2 and later ones included: swift-certificates names only v1 and v3, and
    /// writes any other as `X509vN`.
    private static func version(_ version: Certificate.Version) -> Int {
        switch version {
        case .v1: 1
        case .v3: 3
        default: Int(version.description.dropFirst("X509v".count)) ?? 0
        }
    }

    /// Whether a GeneralName has a form OpenSSL's decoder takes: mail, DNS and URI text, an IP address and a registered
    /// OID as primitives; otherName, x400Address and ediPartyName constructed; a directoryName holding one Name.
    static func isWellFormedGeneralName(_ name: ASN1Node) -> Bool {
        guard name.identifier.tagClass == .contextSpecific else { return false }
        switch (name.identifier.tagNumber, name.content) {
        case (1, .primitive), (2, .primitive), (6, .primitive), (7, .primitive), (8, .primitive), (0, .constructed), (3, .constructed),
            (5, .constructed):
            return true
        case (4, .constructed(let children)):
            var iterator = children.makeIterator()
            guard let only = iterator.next(), iterator.next() == nil else { return false }
            return isWellFormedName(only)
        default: return false
        }
    }

    /// Whether a node is a Name as OpenSSL decodes one: a SEQUENCE of SETs of (OBJECT IDENTIFIER, value), each value
    /// of a universal type OpenSSL's directory strings take.
    private static func isWellFormedName(_ node: ASN1Node) -> Bool {
        guard node.identifier == .sequence, case .constructed(let relativeNames) = node.content else { return false }
        return relativeNames.allSatisfy { relativeName in
            guard relativeName.identifier == .set, case .constructed(let attributes) = relativeName.content else { return false }
            return attributes.allSatisfy { attribute in
                guard attribute.identifier == .sequence, case .constructed(let fields) = attribute.content else { return false }
                var iterator = fields.makeIterator()
                guard let type = iterator.next(), let value = iterator.next(), iterator.next() == nil,
                    type.identifier == .objectIdentifier, (try? ASN1ObjectIdentifier(derEncoded: type)) != nil,
                    value.identifier.tagClass == .universal, directoryStringTags.contains(value.identifier.tagNumber)
                else { return false }
                switch value.content {
                case .constructed: return value.identifier == .sequence
                case .primitive(let bytes) where value.identifier == .bitString:
                    // OpenSSL's BIT STRING decoder: at most 7 unused bits, none in an empty one (the name keeps its
                    // bytes as they came, so bits set in the padding are not re-encoded away).
                    guard let unused = bytes.first, unused <= 7 else { return false }
                    return bytes.count > 1 || unused == 0
                case .primitive: return value.identifier != .sequence
                }
            }
        }
    }

    /// The universal tags OpenSSL takes as an attribute's value (its B_ASN1_PRINTABLE mask): the string types, BIT
    /// STRING, SEQUENCE, and the tags it maps to an unknown type.
    private static let directoryStringTags: Set<UInt> = [3, 7, 8, 9, 11, 12, 13, 14, 15, 16, 18, 19, 20, 22, 28, 29, 30]

    /// Whether bytes are GeneralNames as the subjectAltName is read.
    static func isGeneralNames(_ value: ArraySlice<UInt8>) -> Bool { subjectAltNames(value) != nil }

    /// The subjectAltName's DNS names and IP addresses read from its DER, as OpenSSL reads them: a DNS name's bytes
    /// whatever they are (one that is not printable ASCII becomes `nil`, which the rules refuse), where
    /// swift-certificates refuses the whole extension for one byte outside IA5. `nil` when it does not decode.
    private static func subjectAltNames(_ value: ArraySlice<UInt8>) -> (dns: [String?], ip: [[UInt8]], count: Int)? {
        guard let root = try? DER.parse(value), root.identifier == .sequence, case .constructed(let names) = root.content else {
            return nil
        }
        var result: (dns: [String?], ip: [[UInt8]], count: Int) = ([], [], 0)
        for name in names {
            result.count += 1
            guard isWellFormedGeneralName(name) else { return nil }
            switch (name.identifier.tagNumber, name.content) {
            case (2, .primitive(let bytes)):
                result.dns.append(bytes.allSatisfy { (0x21...0x7e).contains($0) } ? String(decoding: bytes, as: UTF8.self) : nil)
            case (7, .primitive(let bytes)): result.ip.append(Array(bytes))
            default: continue
            }
        }
        return result
    }

    private static func extendedKeyUsage(_ extensions: Certificate.Extensions) -> [String]? {
        // An undecodable extendedKeyUsage is present with no purposes, as OpenSSL reads it.
        extensions[oid: .X509ExtensionID.extendedKeyUsage].map { ExtensionShapes.purposes($0.value) }
    }

    /// An OID in dotted form as OpenSSL writes it: SwiftASN1 splits the first subidentifier by 40 alone, so an OID under
    /// `2` with a second arc of 40 or more (`2.999.1`) would read as `27.39.1`.
    static func dotted(_ oid: ASN1ObjectIdentifier) -> String {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(oid)) != nil, let node = try? DER.parse(serializer.serializedBytes),
            case .primitive(let content) = node.content
        else { return oid.description }
        var arcs: [UInt64] = []
        var value: UInt64 = 0
        for byte in content {
            guard value >> 57 == 0 else { return oid.description }  // past 64 bits: no OID a rule names
            value = value << 7 | UInt64(byte & 0x7f)
            if byte & 0x80 == 0 {
                arcs.append(value)
                value = 0
            }
        }
        guard let first = arcs.first else { return oid.description }
        let head: [UInt64] = first < 40 ? [0, first] : first < 80 ? [1, first - 40] : [2, first - 80]
        return (head + arcs.dropFirst()).map(String.init).joined(separator: ".")
    }

    // MARK: Keys

    /// The serial number and key of a certificate swift-certificates cannot parse (a key it does not support, a
    /// negative serial), read from its DER, for ``ProfileRules/refusal(ofUnparsed:anchorIsPublic:)``; `nil` when even
    /// those cannot be read.
    public static func unparsed(der: [UInt8], depth: Int) -> CertificateFacts? {
        try? DER.sequence(try DER.parse(der), identifier: .sequence) { certificate in
            guard let tbs = certificate.next() else { return nil }
            return try DER.sequence(tbs, identifier: .sequence) { fields -> CertificateFacts? in
                var field = fields.next()
                if field?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) { field = fields.next() }
                guard let serial = field, serial.identifier == .integer, case .primitive(let octets) = serial.content else { return nil }
                for _ in 0..<4 { _ = fields.next() }  // signature, issuer, validity, subject
                guard let spki = fields.next() else { return nil }
                while fields.next() != nil {}  // SwiftASN1 refuses a sequence whose nodes were not all read
                return CertificateFacts(depth: depth, serialNumber: Array(octets), publicKey: publicKey(spki: spki))
            }.map { facts in
                while certificate.next() != nil {}
                return facts
            }
        } ?? nil
    }

    private static func publicKey(_ certificate: Certificate) -> PublicKeyFacts {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate.publicKey)) != nil, let spki = try? DER.parse(serializer.serializedBytes) else {
            return .unreadable
        }
        return publicKey(spki: spki)
    }

    private static func publicKey(spki: ASN1Node) -> PublicKeyFacts {
        (try? DER.sequence(spki, identifier: .sequence) { nodes -> PublicKeyFacts in
            let (algorithm, parameters) = try DER.sequence(nodes.next() ?? spki, identifier: .sequence) { inner in
                (try ASN1ObjectIdentifier(derEncoded: &inner), inner.next())
            }
            let key = try ASN1BitString(derEncoded: &nodes)
            switch dotted(algorithm) {
            case "1.2.840.113549.1.1.1": return .rsa(bits: try rsaModulusBits(Array(key.bytes)))
            case "1.2.840.10045.2.1":
                guard let parameters, let curve = try? ASN1ObjectIdentifier(derEncoded: parameters) else { return .ec(curve: nil) }
                return .ec(curve: curveNames[dotted(curve)] ?? dotted(curve))
            case "1.3.101.112": return .ed25519
            case "1.3.101.113": return .ed448
            case "1.2.840.10040.4.1": return .dsa
            case let other: return .other(algorithm: other)
            }
        }) ?? .unreadable
    }

    /// basicConstraints read from its DER: swift-certificates refuses a pathLenConstraint beside cA=FALSE, which the
    /// x509-strict rule must see.
    private static func basicConstraints(_ value: ArraySlice<UInt8>) -> (isCA: Bool, pathLength: Int?, isDER: Bool)? {
        try? DER.sequence(try DER.parse(value), identifier: .sequence) { nodes in
            var node = nodes.next()
            var (isCA, isDER) = (false, true)
            if let flag = node, flag.identifier == .boolean {
                // OpenSSL reads any non-zero octet as TRUE, as BER has it, and writes it back as it was, so the facts
                // take it as OpenSSL does; what its DER re-encoding drops is the DEFAULT FALSE written out.
                guard case .primitive(let octets) = flag.content, octets.count == 1 else {
                    throw ASN1Error.invalidASN1Object(reason: "BOOLEAN")
                }
                isCA = octets.first != 0
                isDER = isCA
                node = nodes.next()
            }
            return (isCA, try node.map { try Int(derEncoded: $0) }, isDER)
        }
    }

    /// Whether the algorithm outside the signed part is the one inside it (swift-certificates parses both, checks neither).
    private static func signatureAlgorithmsMatch(_ certificate: Certificate) -> Bool {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(certificate)) != nil, let root = try? DER.parse(serializer.serializedBytes) else { return false }
        return
            (try? DER.sequence(root, identifier: .sequence) { nodes -> Bool in
                guard let tbs = nodes.next(), let outer = nodes.next() else { return false }
                while nodes.next() != nil {}  // SwiftASN1 refuses a sequence whose nodes were not all read
                let inner = try DER.sequence(tbs, identifier: .sequence) { fields -> ASN1Node? in
                    var field = fields.next()
                    if field?.identifier == ASN1Identifier(tagWithNumber: 0, tagClass: .contextSpecific) { field = fields.next() }
                    let algorithm = fields.next()
                    while fields.next() != nil {}
                    return algorithm
                }
                return inner.map { Array($0.encodedBytes) == Array(outer.encodedBytes) } ?? false
            }) ?? false
    }

    /// OpenSSL's short names of the named curves, which the key-strength rule reads.
    private static let curveNames = [
        "1.2.840.10045.3.1.7": "prime256v1", "1.3.132.0.34": "secp384r1", "1.3.132.0.35": "secp521r1", "1.3.132.0.10": "secp256k1",
        "1.2.840.10045.3.1.1": "prime192v1", "1.3.132.0.33": "secp224r1",
    ]

    /// A positive integer's magnitude (swift-certificates keeps a serial number so) as DER's content octets, the form
    /// the OpenSSL adapter reads: a leading zero octet where the high bit is set, one zero octet for zero.
    static func derContent(ofMagnitude magnitude: ArraySlice<UInt8>) -> [UInt8] {
        let significant = magnitude.drop { $0 == 0 }
        guard let first = significant.first else { return [0] }
        return first & 0x80 != 0 ? [0] + significant : Array(significant)
    }

    /// The size of an RSAPublicKey's modulus in bits, leading zero bits not counted.
    private static func rsaModulusBits(_ der: [UInt8]) throws -> Int {
        let modulus = try DER.sequence(try DER.parse(der), identifier: .sequence) { nodes -> ArraySlice<UInt8> in
            guard let node = nodes.next(), node.identifier == .integer, case .primitive(let octets) = node.content else {
                throw ASN1Error.invalidASN1Object(reason: "RSAPublicKey modulus")
            }
            while nodes.next() != nil {}
            return octets
        }
        let significant = modulus.drop { $0 == 0 }
        guard let first = significant.first else { return 0 }
        return significant.count * 8 - first.leadingZeroBitCount
    }

    // MARK: Extensions

    /// Whether an extension's value decodes as its definition says: swift-certificates' type where it has one, the
    /// never-empty sequences of RFC 5280 by their shape, any other extension OpenSSL knows as well-formed DER.
    private static func decodes(_ ext: Certificate.Extension) -> Bool {
        let oid = dotted(ext.oid)
        // OpenSSL's decoders refuse a UTF8String that is not UTF-8 and a BMPString or UniversalString of a broken
        // length anywhere in an extension it knows (a directoryName inside an authorityKeyIdentifier, say);
        // swift-certificates keeps them.
        if ExtensionFacts.hasJudgedEncoding(oid), let root = try? DER.parse(ext.value), !stringsAreWellFormed(root) { return false }
        if let shaped = ExtensionShapes.decodes(oid: oid, value: ext.value) { return shaped }
        switch oid {
        case "2.5.29.17": return subjectAltNames(ext.value) != nil
        // swift-certificates refuses a pathLenConstraint beside cA=FALSE, which OpenSSL decodes (x509-strict refuses it).
        case "2.5.29.19": return basicConstraints(ext.value)?.isDER == true
        // Neither subtree is a structure OpenSSL decodes (the constraint-extensions rule refuses it); swift-certificates does not.
        case "2.5.29.30": return nameConstraints(ext) != .malformed
        case let oid where ExtensionFacts.hasJudgedEncoding(oid): return (try? DER.parse(ext.value)) != nil
        default: return true
        }
    }

    /// Whether every UTF8String, BMPString and UniversalString below a node is well formed, as OpenSSL's decoders
    /// require.
    private static func stringsAreWellFormed(_ node: ASN1Node) -> Bool {
        switch node.content {
        case .constructed(let children): return children.allSatisfy(stringsAreWellFormed)
        case .primitive(let bytes):
            guard node.identifier.tagClass == .universal else { return true }
            switch node.identifier.tagNumber {
            case 12: return String(validating: bytes, as: UTF8.self) != nil
            case 30: return bytes.count % 2 == 0
            case 28: return bytes.count % 4 == 0
            default: return true
            }
        }
    }
}
