import CertificateRules
import Foundation
import NIOStack
import Reference
import X509

/// The differential check of the two stacks' readings of a certificate: where OpenSSL (the reference stack) and
/// swift-certificates (the NIO stack) both parse it, the facts each stack reads must be equal, so that one set of rules
/// gives one verdict. A certificate either library refuses is refused by that stack whatever its facts (the NIO stack
/// only looks for the profile's reason in its serial and key), so only the reading of it must end; one with an
/// extension that does not decode is refused by both, so only their readings of its extensions must agree.
public enum FactsDifference {
    /// What differs, or `nil` when the readings agree.
    public static func of(_ der: [UInt8]) -> String? {
        guard let certificate = try? Certificate(derEncoded: der) else {
            _ = CertificateFacts.unparsed(der: der, depth: 0)
            return nil
        }
        guard let openSSL = CertificateFacts(openSSLDER: der, depth: 0) else { return nil }
        let swift = CertificateFacts(swiftCertificates: certificate, depth: 0)
        // An extension that does not decode is refused by both stacks (the extension-encoding rule; OpenSSL's own
        // check first on the reference stack), whatever else is read: then only the extensions must agree.
        // An extension that appears twice is refused by both stacks too (each library reads a different one of the two).
        let refusedByBoth =
            swift.extensions.contains { !$0.isWellFormed } || Set(swift.extensions.map(\.oid)).count < swift.extensions.count
        if swift.extensions == openSSL.extensions, refusedByBoth { return nil }
        guard swift != openSSL else { return nil }
        let left = Mirror(reflecting: swift).children
        let right = Array(Mirror(reflecting: openSSL).children)
        return zip(left, right).compactMap { lhs, rhs in
            "\(lhs.value)" == "\(rhs.value)" ? nil : "\(lhs.label ?? "?"): \(lhs.value) (swift-certificates) vs \(rhs.value) (OpenSSL)"
        }.joined(separator: "; ")
    }
}
