import Crypto
import Foundation
import SwiftASN1
import X509

/// A revocation list written byte by byte and signed with the `revocation` fixture intermediate's key: the shapes
/// `openssl ca` cannot make (a critical extension on an entry, an explicit `critical FALSE`, a relative distribution
/// point), for telling whether both stacks read them alike.
struct CraftedRevocationList: Sendable, CustomStringConvertible {

    /// One revoked certificate: its serial's INTEGER content, and its entry's extensions (each an Extension's DER).
    struct Entry: Sendable {
        var serial: [UInt8]
        var extensions: [[UInt8]] = []
    }

    var name: String
    var thisUpdate = "20200101000000Z"
    var entries: [Entry] = []
    /// The list's extensions besides its CRL number.
    var extensions: [[UInt8]] = []
    /// Whether the CRL number's extension writes out `critical FALSE`, which DER forbids and OpenSSL reads.
    var explicitNonCritical = false

    var description: String { name }

    /// The list's DER, signed by the intermediate.
    func der() throws -> [UInt8] {
        let folder = Fixtures.path("revocation")
        let issuer = try Certificate(pemEncoded: String(contentsOfFile: "\(folder)/intermediate-1.pem", encoding: .utf8))
        let key = try P256.Signing.PrivateKey(pemRepresentation: String(contentsOfFile: "\(folder)/intermediate-1.key", encoding: .utf8))
        var name = DER.Serializer()
        try name.serialize(issuer.subject)
        let number = Self.tlv(
            0x30, Self.oid([2, 5, 29, 20]) + (explicitNonCritical ? Self.tlv(0x01, [0]) : []) + Self.tlv(0x04, Self.tlv(0x02, [1])))
        let algorithm = Self.tlv(0x30, Self.oid([1, 2, 840, 10045, 4, 3, 2]))
        let revoked = entries.map { entry in
            Self.tlv(
                0x30,
                Self.tlv(0x02, entry.serial) + Self.tlv(0x17, Array("200601000000Z".utf8))
                    + (entry.extensions.isEmpty ? [] : Self.tlv(0x30, entry.extensions.flatMap { $0 })))
        }
        let tbs = Self.tlv(
            0x30,
            Self.tlv(0x02, [1]) + algorithm + name.serializedBytes + Self.tlv(0x18, Array(thisUpdate.utf8))
                + Self.tlv(0x18, Array("21200101000000Z".utf8)) + (revoked.isEmpty ? [] : Self.tlv(0x30, revoked.flatMap { $0 }))
                + Self.tlv(0xA0, Self.tlv(0x30, number + extensions.flatMap { $0 })))
        let signature = try key.signature(for: tbs).derRepresentation
        return Self.tlv(0x30, tbs + algorithm + Self.tlv(0x03, [0] + Array(signature)))
    }

    /// The serial number of the `revocation` fixture leaf, as its INTEGER's content.
    static func leafSerial() throws -> [UInt8] {
        let leaf = try Certificate(pemEncoded: String(contentsOfFile: Fixtures.path("revocation/leaf.pem"), encoding: .utf8))
        let magnitude = Array(leaf.serialNumber.bytes)
        return (magnitude.first ?? 0) >= 0x80 ? [0] + magnitude : magnitude
    }

    /// An Extension: its OID, `critical TRUE` when asked, and its value.
    static func ext(_ oid: [UInt], critical: Bool = false, _ value: [UInt8]) -> [UInt8] {
        tlv(0x30, self.oid(oid) + (critical ? tlv(0x01, [0xFF]) : []) + tlv(0x04, value))
    }

    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let count = content.count
        let length: [UInt8] =
            count < 0x80 ? [UInt8(count)] : count < 0x100 ? [0x81, UInt8(count)] : [0x82, UInt8(count >> 8), UInt8(count & 0xFF)]
        return [tag] + length + content
    }

    static func oid(_ arcs: [UInt]) -> [UInt8] {
        var body: [UInt8] = [UInt8(arcs[0] * 40 + arcs[1])]
        for arc in arcs.dropFirst(2) {
            var chunk: [UInt8] = [UInt8(arc & 0x7F)]
            var rest = arc >> 7
            while rest > 0 {
                chunk.insert(UInt8(0x80 | (rest & 0x7F)), at: 0)
                rest >>= 7
            }
            body += chunk
        }
        return tlv(0x06, body)
    }
}
