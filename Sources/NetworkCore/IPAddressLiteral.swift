#if canImport(Glibc)
import Glibc
#endif

/// IPv4 and IPv6 literals as hosts are written (no brackets): the one parser the pinning handlers, the validation
/// rules and both stacks' transports share, so that they agree on what is an address (and a transport of your own can
/// agree with them).
public enum IPAddressLiteral {

    /// The octets of an IPv4 or IPv6 literal (without brackets), or `nil` for any other name.
    public static func bytes(of name: String) -> [UInt8]? {
        var v4 = in_addr()
        if inet_pton(AF_INET, name, &v4) == 1 { return withUnsafeBytes(of: &v4) { Array($0) } }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, name, &v6) == 1 { return withUnsafeBytes(of: &v6) { Array($0) } }
        return nil
    }

    /// The text of an address's octets (4 or 16) in its one canonical form: IPv4 dotted-decimal, IPv6 as RFC 5952
    /// section 4 writes it (lowercase, no leading zeros, the longest run of two or more zero groups as `::`), which
    /// glibc's `inet_ntop` produces; `nil` for any other length.
    public static func canonicalText(of bytes: [UInt8]) -> String? {
        let family: Int32
        switch bytes.count {
        case 4: family = AF_INET
        case 16: family = AF_INET6
        default: return nil
        }
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard bytes.withUnsafeBytes({ inet_ntop(family, $0.baseAddress, &text, socklen_t(text.count)) }) != nil else { return nil }
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
