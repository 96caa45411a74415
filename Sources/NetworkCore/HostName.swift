#if canImport(Glibc)
import Glibc
#endif

/// A URL's host as a stack's trust check, SNI and challenge handler see it (TRUST-9), whichever URL parser read it.
///
/// Both stacks of this package normalise with it, so that `https://Example.COM./` and `https://example.com/` are one
/// host to each, and `https://[::1]/` is the address `::1`.
public enum HostName {

    /// `spelled` (a URL's host, an IPv6 address in brackets or not) in lower case, without the brackets, and without one
    /// trailing dot (the root of the DNS, which certificates never name); a lone `.` stays as it is. An IPv4 address
    /// written short or in another base (`127.1`, `0x7f.0.0.1`, `2130706433`) is the address a resolver reads it as,
    /// in dotted-quad form, as libcurl and the WHATWG URL standard take it.
    public static func normalized(_ spelled: String) -> String {
        var host = spelled
        // Hosts a transport hands over are normalised already: checking is cheaper than lowercasing a copy.
        if host.utf8.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 || $0 == UInt8(ascii: "[") })
            || host.utf8.last == UInt8(ascii: ".")
        {
            host = host.lowercased()
            if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 { host = String(host.dropFirst().dropLast()) }
            if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        }
        if let first = host.utf8.first, (0x30...0x39).contains(first), let quad = dottedQuad(host) { return quad }
        return host
    }

    /// The dotted-quad form of an IPv4 address in any of the forms `inet_aton` reads, or `nil` for anything else.
    private static func dottedQuad(_ host: String) -> String? {
        guard
            host.utf8.allSatisfy({
                $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "x") || ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66)
            })
        else { return nil }
        var address = in_addr()
        guard inet_aton(host, &address) != 0 else { return nil }
        return IPAddressLiteral.canonicalText(of: withUnsafeBytes(of: &address) { Array($0) })
    }

    /// Whether a normalized host is a name, which SNI may carry, rather than an address, which it never does (RFC
    /// 6066 §3).
    public static func isName(_ host: String) -> Bool {
        IPAddressLiteral.bytes(of: host) == nil
    }
}
