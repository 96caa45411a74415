import CertificateRules
import SwiftASN1

/// The shapes OpenSSL's decoders require of the extensions it knows and swift-certificates has no type for: an
/// extension the reference stack reads as malformed must read as malformed here too (the extension-encoding rule
/// refuses it on both stacks). Each shape checks the tags and the contents OpenSSL's decoder checks, in DER as the
/// reference stack reads them: a minimal INTEGER, an empty NULL, a BIT STRING's unused bits, an OBJECT IDENTIFIER's
/// subidentifiers.
enum ExtensionShapes {

    /// Whether an extension's value has the shape OpenSSL requires of it; `nil` for an OID without a shape here.
    static func decodes(oid: String, value: ArraySlice<UInt8>) -> Bool? {
        guard let shape = shapes[oid] else { return nil }
        guard let node = try? DER.parse(value) else { return false }
        return matches(node, shape)
    }

    indirect enum Shape: Sendable {
        case primitive(ASN1Identifier)
        case sequenceOf(Shape, nonEmpty: Bool)
        /// A SEQUENCE of these, in order; an optional one may be missing.
        case sequence([(shape: Shape, optional: Bool)])
        /// GeneralNames, read as the subjectAltName is.
        case generalNames
        /// One GeneralName.
        case generalName
        /// GeneralNames under an implicit context tag.
        case taggedGeneralNames(UInt)
        /// An INTEGER under an implicit context tag.
        case taggedInteger(UInt)
        /// Any one of these.
        case choice([Shape])
        /// A shape under an explicit context tag.
        case explicit(UInt, Shape)
        /// A primitive under an implicit context tag, its contents checked as this universal type's.
        case implicitPrimitive(UInt, ASN1Identifier)
        /// Anything constructed under an implicit context tag.
        case implicitConstructed(UInt)
        /// A PolicyQualifierInfo: its OID, then the qualifier its OID defines (a CPS URI, a user notice, or anything).
        case policyQualifier
    }

    private static let integer = Shape.primitive(.integer)
    private static let ia5 = Shape.primitive(.ia5String)
    private static func context(_ number: UInt) -> ASN1Identifier { ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific) }

    /// RFC 5280's DisplayText: IA5String, VisibleString, BMPString or UTF8String.
    private static let displayText = Shape.choice([
        .primitive(.ia5String), .primitive(ASN1Identifier(tagWithNumber: 26, tagClass: .universal)),
        .primitive(ASN1Identifier(tagWithNumber: 30, tagClass: .universal)), .primitive(.utf8String),
    ])
    private static let userNotice = Shape.sequence([
        (.sequence([(displayText, false), (.sequenceOf(integer, nonEmpty: false), false)]), true), (displayText, true),
    ])

    /// A DistributionPoint: its name (full GeneralNames, or a name relative to the CRL issuer), reasons, CRL issuer.
    private static let distributionPoint = Shape.sequence([
        (.explicit(0, .choice([.taggedGeneralNames(0), .implicitConstructed(1)])), true),
        (.implicitPrimitive(1, .bitString), true), (.taggedGeneralNames(2), true),
    ])

    private static let shapes: [String: Shape] = [
        "2.5.29.31": .sequenceOf(distributionPoint, nonEmpty: true),  // cRLDistributionPoints
        "2.5.29.46": .sequenceOf(distributionPoint, nonEmpty: false),  // freshestCRL
        // certificatePolicies: PolicyInformation (an OID, then qualifiers) at least once.
        "2.5.29.32": .sequenceOf(
            .sequence([(.primitive(.objectIdentifier), false), (.sequenceOf(.policyQualifier, nonEmpty: false), true)]), nonEmpty: true),
        "2.5.29.15": .primitive(.bitString),  // keyUsage
        "2.5.29.37": .sequenceOf(.primitive(.objectIdentifier), nonEmpty: false),  // extendedKeyUsage
        "2.5.29.14": .primitive(.octetString),  // subjectKeyIdentifier
        // authorityKeyIdentifier: keyIdentifier, authorityCertIssuer, authorityCertSerialNumber, each optional.
        "2.5.29.35": .sequence([(.primitive(context(0)), true), (.taggedGeneralNames(1), true), (.taggedInteger(2), true)]),
        "2.5.29.20": integer,  // cRLNumber
        "2.5.29.27": integer,  // deltaCRLIndicator
        "2.5.29.54": integer,  // inhibitAnyPolicy
        "2.5.29.21": .primitive(.enumerated),  // cRLReason
        "2.5.29.24": .primitive(.generalizedTime),  // invalidityDate
        "2.5.29.23": .primitive(.objectIdentifier),  // holdInstructionCode
        "1.3.6.1.5.5.7.48.1.5": .primitive(.null),  // OCSP noCheck
        "2.16.840.1.113730.1.1": .primitive(.bitString),  // Netscape cert type
        "2.16.840.1.113730.1.2": ia5, "2.16.840.1.113730.1.3": ia5, "2.16.840.1.113730.1.4": ia5, "2.16.840.1.113730.1.7": ia5,
        "2.16.840.1.113730.1.8": ia5, "2.16.840.1.113730.1.12": ia5, "2.16.840.1.113730.1.13": ia5,
        "1.3.6.1.5.5.7.1.24": .sequenceOf(integer, nonEmpty: false),  // TLS feature
        "2.5.29.18": .generalNames,  // issuerAltName
        "2.5.29.29": .generalNames,  // certificateIssuer
        "2.5.29.33": .sequenceOf(
            .sequence([(.primitive(.objectIdentifier), false), (.primitive(.objectIdentifier), false)]), nonEmpty: false),
        "2.5.29.36": .sequence([(.primitive(context(0)), true), (.primitive(context(1)), true)]),  // policyConstraints
        "2.5.29.16": .sequence([(.primitive(context(0)), true), (.primitive(context(1)), true)]),  // privateKeyUsagePeriod
        "1.3.6.1.5.5.7.1.1": .sequenceOf(.sequence([(.primitive(.objectIdentifier), false), (.generalName, false)]), nonEmpty: true),
        "1.3.6.1.5.5.7.1.11": .sequenceOf(.sequence([(.primitive(.objectIdentifier), false), (.generalName, false)]), nonEmpty: false),
    ]

    private static func matches(_ node: ASN1Node, _ shape: Shape) -> Bool {
        switch shape {
        case .primitive(let identifier):
            guard node.identifier == identifier, case .primitive(let bytes) = node.content else { return false }
            return contentIsWellFormed(bytes, identifier)
        case .sequenceOf(let element, let nonEmpty):
            guard node.identifier == .sequence, case .constructed(let children) = node.content else { return false }
            var count = 0
            for child in children {
                guard matches(child, element) else { return false }
                count += 1
            }
            return !nonEmpty || count > 0
        case .sequence(let fields):
            guard node.identifier == .sequence, case .constructed(let children) = node.content else { return false }
            var iterator = children.makeIterator()
            var next = iterator.next()
            for field in fields {
                if let child = next, matches(child, field.shape) {
                    next = iterator.next()
                } else if !field.optional {
                    return false
                }
            }
            return next == nil
        case .generalNames:
            return CertificateFacts.isGeneralNames(node.encodedBytes)
        case .generalName:
            return CertificateFacts.isWellFormedGeneralName(node)
        case .taggedGeneralNames(let number):
            guard node.identifier == context(number), case .constructed(let names) = node.content else { return false }
            return names.allSatisfy(CertificateFacts.isWellFormedGeneralName)
        case .explicit(let number, let inner):
            guard node.identifier == context(number), case .constructed(let children) = node.content else { return false }
            var iterator = children.makeIterator()
            guard let only = iterator.next(), iterator.next() == nil else { return false }
            return matches(only, inner)
        case .implicitPrimitive(let number, let type):
            guard node.identifier == context(number), case .primitive(let bytes) = node.content else { return false }
            return contentIsWellFormed(bytes, type)
        case .implicitConstructed(let number):
            guard node.identifier == context(number), case .constructed = node.content else { return false }
            return true
        case .choice(let shapes):
            return shapes.contains { matches(node, $0) }
        case .policyQualifier:
            guard node.identifier == .sequence, case .constructed(let fields) = node.content else { return false }
            var iterator = fields.makeIterator()
            guard let oid = iterator.next(), matches(oid, .primitive(.objectIdentifier)), let qualifier = iterator.next(),
                iterator.next() == nil
            else { return false }
            switch (try? ASN1ObjectIdentifier(derEncoded: oid)).map(CertificateFacts.dotted) {
            case "1.3.6.1.5.5.7.2.1": return matches(qualifier, .primitive(.ia5String))
            case "1.3.6.1.5.5.7.2.2": return matches(qualifier, userNotice)
            default: return true
            }
        case .taggedInteger(let number):
            guard node.identifier == context(number), case .primitive(let bytes) = node.content else { return false }
            return contentIsWellFormed(bytes, .integer)
        }
    }

    /// Whether a keyUsage value says keyCertSign, as OpenSSL reads its bits; `false` for one that does not decode.
    static func keyCertSign(_ value: ArraySlice<UInt8>) -> Bool {
        guard decodes(oid: "2.5.29.15", value: value) == true, let node = try? DER.parse(value), case .primitive(let bytes) = node.content,
            bytes.count > 1
        else { return false }
        // The unused bits of the last octet are not bits, as OpenSSL reads them.
        let first = bytes[bytes.index(after: bytes.startIndex)]
        let mask: UInt8 = bytes.count == 2 ? 0xff << bytes[bytes.startIndex] : 0xff
        return first & mask & 0x04 != 0
    }

    /// The extendedKeyUsage purposes, dotted; none for a value that does not decode, as OpenSSL reads it.
    static func purposes(_ value: ArraySlice<UInt8>) -> [String] {
        guard decodes(oid: "2.5.29.37", value: value) == true, let node = try? DER.parse(value), case .constructed(let oids) = node.content
        else { return [] }
        return oids.compactMap { (try? ASN1ObjectIdentifier(derEncoded: $0)).map(CertificateFacts.dotted) }
    }

    /// Whether an authorityKeyIdentifier carries its keyIdentifier; `false` for one that does not decode.
    static func hasKeyIdentifier(_ value: ArraySlice<UInt8>) -> Bool {
        guard decodes(oid: "2.5.29.35", value: value) == true, let node = try? DER.parse(value),
            case .constructed(let fields) = node.content
        else { return false }
        var iterator = fields.makeIterator()
        return iterator.next()?.identifier == context(0)
    }

    /// What OpenSSL's content decoders check of a primitive.
    private static func contentIsWellFormed(_ bytes: ArraySlice<UInt8>, _ identifier: ASN1Identifier) -> Bool {
        switch identifier {
        case .integer, .enumerated:
            guard let first = bytes.first else { return false }
            guard bytes.count > 1 else { return true }
            let second = bytes[bytes.index(after: bytes.startIndex)]
            return !(first == 0x00 && second < 0x80) && !(first == 0xff && second >= 0x80)
        case .null: return bytes.isEmpty
        case .bitString:
            guard let unused = bytes.first, unused <= 7 else { return false }
            // DER: the unused bits of the last octet are zero (OpenSSL's re-encoding clears them, so the DER check differs).
            guard let last = bytes.dropFirst().last else { return unused == 0 }
            return last & ~(0xff << unused) == 0
        case .objectIdentifier:
            guard let last = bytes.last, last & 0x80 == 0 else { return false }
            var startsSubidentifier = true
            for byte in bytes {
                if startsSubidentifier, byte == 0x80 { return false }
                startsSubidentifier = byte & 0x80 == 0
            }
            return true
        default: return true
        }
    }
}
