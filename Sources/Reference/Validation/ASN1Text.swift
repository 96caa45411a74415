internal import COpenSSL

/// ASN.1 values OpenSSL holds, read as Swift values.
enum ASN1Text {

    /// An ASN.1 string's bytes as text, or `nil` if any byte is not printable ASCII (an embedded NUL
    /// included, which would otherwise cut the name short).
    static func string(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> String? {
        let raw = bytes(string)
        guard raw.allSatisfy({ (0x21...0x7e).contains($0) }) else { return nil }
        return String(decoding: raw, as: UTF8.self)
    }

    /// An ASN.1 string's bytes.
    static func bytes(_ string: UnsafeMutablePointer<ASN1_STRING>?) -> [UInt8] {
        guard let string, let data = ASN1_STRING_get0_data(string) else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(string))))
    }

    /// An object identifier, dotted (`2.5.29.17`).
    static func dottedOID(_ object: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0, Int(length) < buffer.count else { return "(unreadable)" }
        return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
