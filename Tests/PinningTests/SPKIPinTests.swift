import Foundation
@testable import Pinning
import Testing

/// Pins compare in canonical base64, so the same digest matches however its spare bits were written.
@Suite("SPKI pin canonical form")
struct SPKIPinTests {
    /// A digest whose base64 ends in `A=`: the last character's two spare bits are zero.
    private let canonical = Data(repeating: 0xA0, count: 32).base64EncodedString()

    @Test("a canonical pin is returned as it is")
    func canonicalPinUnchanged() {
        #expect(canonical.hasSuffix("A="))
        #expect(SPKIPin.canonical(canonical) == canonical)
    }

    @Test("a pin with non-zero spare bits canonicalises to the pin of the same digest", arguments: ["B=", "C=", "D="])
    func spareBitsAreCleared(ending: String) {
        let spare = String(canonical.dropLast(2)) + ending
        #expect(SPKIPin.canonical(spare) == canonical)
    }

    @Test("a pin written with HPKP's sha256/ prefix is the same pin, without it")
    func prefixTakenOff() {
        #expect(SPKIPin.canonical("sha256/" + canonical) == canonical)
        let spare = String(canonical.dropLast(2)) + "B="
        #expect(SPKIPin.canonical("sha256/" + spare) == canonical)
    }

    @Test(
        "anything but padded standard base64 of 32 bytes, with or without sha256/, is refused",
        arguments: [
            "sha256/", "sha256/sha256/" + Data(count: 32).base64EncodedString(), "SHA256/" + Data(count: 32).base64EncodedString(),
            "sha1/" + Data(count: 32).base64EncodedString(), "sha256/" + String(repeating: "A", count: 44),
        ])
    func malformedPrefixedPinsRefused(pin: String) {
        #expect(SPKIPin.canonical(pin) == nil)
    }

    @Test(
        "anything but padded standard base64 of 32 bytes is refused",
        arguments: [
            "", "A=", String(repeating: "A", count: 44), String(repeating: "A", count: 43) + "-",
            String(repeating: "-", count: 43) + "=", String(repeating: "_", count: 43) + "=",
            " " + String(repeating: "A", count: 42) + "=", String(repeating: "A", count: 42) + "==",
            String(repeating: "é", count: 21) + "A=",
        ])
    func malformedPinsRefused(pin: String) {
        #expect(SPKIPin.canonical(pin) == nil)
    }
}
