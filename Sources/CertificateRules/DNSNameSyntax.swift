/// The syntax of DNS names in certificates (RFC 5280 4.2.1.6, which defers to RFC 1034 3.5 "preferred name
/// syntax" as relaxed by RFC 1123 2.1; CA/B Forum Baseline Requirements 7.1.4.2): letters, digits and
/// hyphens in labels of 1 to 63 characters, no hyphen at either end of a label, 253 characters in all.
///
/// An underscore, an empty label (a leading, trailing or doubled period) or any other character makes a
/// name malformed: OpenSSL matches such names byte for byte, so they would otherwise be accepted.
enum DNSNameSyntax {

    /// Whether a subjectAltName DNS name is well formed: a host name, or `*.` followed by one of at least
    /// two labels (a wildcard is a whole leftmost label, never part of one).
    static func isValidSubjectAltName(_ name: String) -> Bool {
        if name.hasPrefix("*.") {
            let base = name.dropFirst(2)
            return base.contains(".") && isValidHostName(base)
        }
        return isValidHostName(Substring(name))
    }

    /// Whether a name constraint's DNS base is well formed: a host name. RFC 5280 4.2.1.10 writes DNS constraints as
    /// `host.example.com`, matching it and every name below it; the leading-period form (`.example.com`, "below
    /// only") is defined for URIs and mail addresses, not DNS names, and CAs that write it cannot be read the same
    /// way by every verifier, so it is malformed here.
    static func isValidConstraint(_ base: String) -> Bool {
        isValidHostName(Substring(base))
    }

    /// Whether a name is a host name in preferred name syntax.
    static func isValidHostName(_ name: Substring) -> Bool {
        guard !name.isEmpty, name.utf8.count <= 253 else { return false }
        return name.split(separator: ".", omittingEmptySubsequences: false).allSatisfy(isValidLabel)
    }

    private static func isValidLabel(_ label: Substring) -> Bool {
        let bytes = Array(label.utf8)
        guard (1...63).contains(bytes.count), bytes.first != UInt8(ascii: "-"), bytes.last != UInt8(ascii: "-") else { return false }
        return bytes.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-")
        }
    }
}
