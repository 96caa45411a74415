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
                let text = String(attribute.value).map(Self.canonicalText) ?? "\(attribute.value)"
                return "\(attribute.type)=\(text)"
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
