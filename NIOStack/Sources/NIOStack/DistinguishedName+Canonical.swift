import SwiftASN1
import X509

extension DistinguishedName {

    /// Whether two names are the same name as OpenSSL compares them (`X509_NAME_cmp` over its canonical encoding):
    /// text values without leading and trailing white space, inner runs of it as one space, ASCII letters in lower
    /// case. swift-certificates compares the encodings as they are, so `CN=Root` would not issue `CN=root`.
    func isSameName(as other: DistinguishedName) -> Bool {
        canonical == other.canonical
    }

    private var canonical: [[String]] {
        map { relativeName in
            relativeName.map { attribute in
                // OpenSSL folds the text of UTF8, Printable, IA5 (swift-certificates reads those), Teletex, Visible,
                // Universal and BMP strings (ASN1_MASK_CANON); any other value stays as it is.
                let folded =
                    String(attribute.value)
                    ?? Self.value(of: attribute).flatMap { [20, 26, 28, 30].contains($0.tag) ? Self.text($0) : nil }
                return "\(attribute.type)=\(folded.map(Self.canonicalText) ?? "\(attribute.value)")"
            }
        }
    }

    private static func canonicalText(_ text: String) -> String {
        let isSpace: (UInt8) -> Bool = { [0x20, 0x09, 0x0a, 0x0b, 0x0c, 0x0d].contains($0) }
        var result: [UInt8] = []
        var pendingSpace = false
        for byte in text.utf8.drop(while: isSpace) {
            if isSpace(byte) {
                pendingSpace = true
                continue
            }
            if pendingSpace { result.append(0x20) }
            pendingSpace = false
            result.append((0x41...0x5a).contains(byte) ? byte + 0x20 : byte)
        }
        return String(decoding: result, as: UTF8.self)
    }
}

extension DistinguishedName {

    /// An attribute's value as text, as OpenSSL's `ASN1_STRING_to_UTF8` gives it: swift-certificates reads only
    /// PrintableString, UTF8String and IA5String, where OpenSSL also reads VisibleString, NumericString and
    /// TeletexString (one octet a character), BMPString and UniversalString. `nil` for any other value.
    static func text(of attribute: RelativeDistinguishedName.Attribute) -> String? {
        if let text = String(attribute.value) { return text }
        return value(of: attribute).flatMap(text)
    }

    /// The attribute value's universal tag and content octets.
    private static func value(of attribute: RelativeDistinguishedName.Attribute) -> (tag: UInt, bytes: ArraySlice<UInt8>)? {
        var serializer = DER.Serializer()
        guard (try? serializer.serialize(attribute)) != nil, let node = try? DER.parse(serializer.serializedBytes),
            case .constructed(let fields) = node.content
        else { return nil }
        var iterator = fields.makeIterator()
        _ = iterator.next()
        guard let value = iterator.next(), value.identifier.tagClass == .universal, case .primitive(let bytes) = value.content else {
            return nil
        }
        return (value.identifier.tagNumber, bytes)
    }

    private static func text(_ value: (tag: UInt, bytes: ArraySlice<UInt8>)) -> String? {
        let bytes = value.bytes
        switch value.tag {
        case 12: return String(validating: bytes, as: UTF8.self)
        case 18, 19, 20, 22, 26: return String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        case 30:
            guard bytes.count % 2 == 0 else { return nil }
            let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).map { UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]) }
            return String(validating: units, as: UTF16.self)
        case 28:
            guard bytes.count % 4 == 0 else { return nil }
            var scalars = String.UnicodeScalarView()
            for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: 4) {
                let value = bytes[start..<start + 4].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
                guard let scalar = Unicode.Scalar(value) else { return nil }
                scalars.append(scalar)
            }
            return String(scalars)
        default: return nil
        }
    }
}
