import Foundation

/// The rules for configured SPKI pins.
enum SPKIPin {

    /// The prefix HPKP and OkHttp write before a pin; taken off, so a pin copied from either form is the same pin.
    static let prefix = "sha256/"

    /// The canonical form of a pin (base64 re-encoded from its bytes, without a prefix), or `nil` if it is not
    /// strict, padded, standard base64 of exactly 32 bytes (a SHA-256 digest), with or without `sha256/` before it.
    ///
    /// Exactly 32 bytes encode as 43 alphabet characters and one `=`; anything else (unpadded, URL-safe,
    /// whitespace, other digest sizes or prefixes) is refused at construction rather than left to never match.
    /// Pins compare in canonical form, so a pin whose last character carries non-zero spare bits still matches
    /// the certificate it decodes to.
    static func canonical(_ pin: String) -> String? {
        if pin.utf8.count == prefix.utf8.count + 44, pin.hasPrefix(prefix) { return canonical(String(pin.dropFirst(prefix.count))) }
        // On UTF-8 bytes: this runs for every pinned request over a reused connection, where character-wise
        // checks cost more than the rest of the pin check.
        var bytes = pin
        return bytes.withUTF8 { utf8 -> String? in
            guard utf8.count == 44, utf8[43] == UInt8(ascii: "="), let last = sextet(utf8[42]),
                utf8[..<42].allSatisfy({ sextet($0) != nil })
            else { return nil }
            // The last character carries the digest's final 4 bits and 2 spare bits: with those zero, the pin
            // is already what re-encoding its bytes would give.
            if last & 0b11 == 0 { return pin }
            guard let digest = Data(base64Encoded: pin), digest.count == 32 else { return nil }
            return digest.base64EncodedString()
        }
    }

    /// The 6-bit value of a standard base64 character, or `nil` for any other byte.
    private static func sextet(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): byte - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
