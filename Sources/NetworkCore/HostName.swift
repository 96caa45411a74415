/// A URL's host as a stack's trust check, SNI and challenge handler see it (TRUST-9), whichever URL parser read it.
///
/// Both stacks of this package normalise with it, so that `https://Example.COM./` and `https://example.com/` are one
/// host to each, and `https://[::1]/` is the address `::1`.
public enum HostName {

    /// `spelled` (a URL's host, an IPv6 address in brackets or not) in lower case, without the brackets, and without one
    /// trailing dot (the root of the DNS, which certificates never name); a lone `.` stays as it is.
    public static func normalized(_ spelled: String) -> String {
        // Hosts a transport hands over are normalised already: checking is cheaper than lowercasing a copy.
        if !spelled.utf8.contains(where: { (0x41...0x5A).contains($0) || $0 >= 0x80 || $0 == UInt8(ascii: "[") }),
            spelled.utf8.last != UInt8(ascii: ".")
        {
            return spelled
        }
        var host = spelled.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]"), host.count >= 2 { host = String(host.dropFirst().dropLast()) }
        if host.hasSuffix("."), host.count > 1 { host.removeLast() }
        return host
    }

    /// Whether a normalized host is a name, which SNI may carry, rather than an address, which it never does (RFC
    /// 6066 §3).
    public static func isName(_ host: String) -> Bool {
        IPAddressLiteral.bytes(of: host) == nil
    }
}
