import Crypto
import Foundation
import SwiftASN1
import X509

/// What the verifier is handed for a trusted v3 root without basicConstraints:
/// RFC 5280 6.1 takes a trust anchor as a name and a key, but swift-certificates' path validation judges the root's
/// basicConstraints like an intermediate's. The stand-in has the root's name, key, validity and extensions, with a
/// critical basicConstraints cA=TRUE; the paths through it are the paths through the root (the certificate below it
/// was signed with the root's key), and the stack reports and judges the root itself, never the stand-in. Its own
/// signature, by a key made here and thrown away, is never checked: an anchor's self-signature is not part of a path.
enum TrustAnchorStandIn {

    /// The root itself when the verifier takes it as it is, else its stand-in.
    static func of(_ root: Certificate) -> Certificate {
        // A root that says cA=FALSE is refused as OpenSSL refuses it; only a silent one is an anchor by its name and key.
        guard root.version == .v3, root.extensions[oid: .X509ExtensionID.basicConstraints] == nil else { return root }
        do {
            var extensions = Array(root.extensions.filter { $0.oid != .X509ExtensionID.basicConstraints })
            extensions.append(try Certificate.Extension(BasicConstraints.isCertificateAuthority(maxPathLength: nil), critical: true))
            return try Certificate(
                version: .v3, serialNumber: root.serialNumber, publicKey: root.publicKey, notValidBefore: root.notValidBefore,
                notValidAfter: root.notValidAfter, issuer: root.issuer, subject: root.subject, signatureAlgorithm: .ecdsaWithSHA256,
                extensions: try Certificate.Extensions(extensions), issuerPrivateKey: Certificate.PrivateKey(P256.Signing.PrivateKey()))
        } catch {
            return root  // the verifier then judges the root as it is, and refuses it: closed, not open
        }
    }
}
