import CertificateRules
import SwiftASN1

/// The shapes OpenSSL's decoders require of the extensions it knows and swift-certificates has no type for: an
/// extension the reference stack reads as malformed must read as malformed here too (the extension-encoding rule
/// refuses it on both stacks). Each shape checks the tags and the contents OpenSSL's decoder checks: a minimal
/// INTEGER, an empty NULL, a BIT STRING's unused-bit count, an OBJECT IDENTIFIER's subidentifiers.
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
    }

    private static let integer = Shape.primitive(.integer)
    private static let ia5 = Shape.primitive(.ia5String)
    private static func context(_ number: UInt) -> ASN1Identifier { ASN1Identifier(tagWithNumber: number, tagClass: .contextSpecific) }

    private static let shapes: [String: Shape] = [
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
            return node.identifier.tagClass == .contextSpecific && node.identifier.tagNumber <= 8
        }
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
            return bytes.count > 1 || unused == 0
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
