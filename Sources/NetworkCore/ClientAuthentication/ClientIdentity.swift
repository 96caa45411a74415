import Foundation

/// A client's identity for TLS client authentication: a certificate chain and the private key of its leaf.
///
/// Build one with the loaders of the stack you use (the reference stack reads PEM files and PKCS#12 archives,
/// and checks at load time that the key matches the leaf), then present it from an
/// ``AuthenticationChallengeHandler`` when a server asks who the client is.
///
/// - Important: The private key is held unencrypted in memory, as DER. Do not log or serialise the value.
public struct ClientIdentity: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {

    /// The certificates to present, leaf first, each in DER.
    public let certificateChain: [Data]

    /// The leaf's private key, as an unencrypted PKCS#8 `PrivateKeyInfo` in DER.
    public let privateKey: Data

    /// The leaf's subject, one line in RFC 2253 form (`CN=…,O=…`).
    public let subject: String

    /// The end of the leaf's validity period.
    public let notAfter: Date

    /// Creates an identity from parts a loader has already checked belong together.
    package init(certificateChain: [Data], privateKey: Data, subject: String, notAfter: Date) {
        self.certificateChain = certificateChain
        self.privateKey = privateKey
        self.subject = subject
        self.notAfter = notAfter
    }

    /// The leaf's subject and the chain's length; never the key.
    public var description: String {
        "ClientIdentity(\(subject), \(certificateChain.count) certificate\(certificateChain.count == 1 ? "" : "s"))"
    }

    /// The same as ``description``: a log line or a debugger never shows the key, even inside another value.
    public var debugDescription: String { description }
}

extension ClientIdentity: CustomReflectable {
    /// The subject and the chain's length only: `dump`, a debugger or any other reflecting printer never shows the
    /// key.
    public var customMirror: Mirror {
        Mirror(self, children: ["subject": subject, "certificates": certificateChain.count], displayStyle: .struct)
    }
}
