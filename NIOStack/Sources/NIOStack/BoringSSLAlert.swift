import Foundation

/// The fatal alert a peer sent, as BoringSSL reports it: an error of its SSL library whose reason is the alert's
/// description plus 1000 (`SSL_AD_REASON_OFFSET`). swift-nio-ssl keeps the packed code to itself but prints it
/// (`error:1000045c:…`), so it is read from there: a number, never a name.
enum BoringSSLAlert {

    /// The description (RFC 8446 §6 numbering) of the first alert received that `error` reports, if any.
    static func received(in error: any Error) -> Int32? {
        let text = "\(error)"
        var rest = text[...]
        while let marker = rest.range(of: "error:") {
            rest = rest[marker.upperBound...]
            let digits = rest.prefix(8)
            guard digits.count == 8, rest.dropFirst(8).first == ":", let packed = UInt32(digits, radix: 16) else { continue }
            let (library, reason) = (packed >> 24, Int32(packed & 0xfff))
            // ERR_LIB_SSL, and a reason in the alerts' range.
            if library == 16, (1000..<1256).contains(reason) { return reason - 1000 }
        }
        return nil
    }
}
