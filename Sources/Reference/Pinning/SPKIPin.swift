import Foundation

/// The rules for configured SPKI pins.
enum SPKIPin {

    private static let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")

    /// The canonical form of a pin (base64 re-encoded from its bytes), or `nil` if it is not strict, padded,
    /// standard base64 of exactly 32 bytes (a SHA-256 digest).
    ///
    /// Exactly 32 bytes encode as 43 alphabet characters and one `=`; anything else (unpadded, URL-safe,
    /// whitespace, `sha256/` prefixes, other digest sizes) is refused at construction rather than left to
    /// never match. Pins compare in canonical form, so a pin whose last character carries non-zero spare
    /// bits still matches the certificate it decodes to.
    static func canonical(_ pin: String) -> String? {
        guard pin.count == 44, pin.last == "=", pin.dropLast().allSatisfy({ alphabet.contains($0) }),
            let bytes = Data(base64Encoded: pin), bytes.count == 32
        else { return nil }
        return bytes.base64EncodedString()
    }
}
