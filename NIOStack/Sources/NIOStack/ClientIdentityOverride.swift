import CertificateRules
import NIOSSL
import NetworkCore

/// A client identity as NIOSSL installs it on one handshake, or why the stack will not present it.
enum ClientIdentityOverride {

    /// An identity the stack will not present: the server never sees it.
    struct Unusable: Error, CustomStringConvertible {
        let description: String
    }

    /// The identity's chain and key, for the handshake that asked; throws when the stack will not present it.
    ///
    /// A key under 112 bits of security (RSA under 2048 bits, DSA) is refused, as OpenSSL refuses it at the security
    /// level Debian sets by default (2), so that both stacks present the same identities; BoringSSL would present it.
    static func presenting(_ identity: ClientIdentity) throws -> NIOSSLContextConfigurationOverride {
        for (depth, der) in identity.certificateChain.enumerated() {
            switch CertificateFacts.unparsed(der: Array(der), depth: depth)?.publicKey {
            case .rsa(let bits) where bits < 2048:
                throw Unusable(description: "certificate #\(depth) has an RSA key of \(bits) bits, under the 2048 a client presents")
            case .dsa:
                throw Unusable(description: "certificate #\(depth) has a DSA key, which a client does not present")
            case nil, .unreadable:
                throw Unusable(description: "certificate #\(depth) cannot be read")
            default:
                break
            }
        }
        var override = NIOSSLContextConfigurationOverride()
        override.certificateChain = try identity.certificateChain.map {
            .certificate(try NIOSSLCertificate(bytes: Array($0), format: .der))
        }
        override.privateKey = .privateKey(try NIOSSLPrivateKey(bytes: Array(identity.privateKey), format: .der))
        return override
    }
}
