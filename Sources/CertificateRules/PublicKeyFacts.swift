/// A certificate's subject public key, as the key-strength rule reads it.
public enum PublicKeyFacts: Sendable, Hashable {
    /// An RSA key, by its modulus size in bits.
    case rsa(bits: Int)
    /// An elliptic-curve key on a named curve (OpenSSL's short name: `prime256v1`, `secp384r1`, `secp521r1`, …), or
    /// `nil` for explicit parameters.
    case ec(curve: String?)
    /// An Ed25519 key.
    case ed25519
    /// An Ed448 key.
    case ed448
    /// A DSA key.
    case dsa
    /// Another algorithm, by its name or dotted OID.
    case other(algorithm: String)
    /// A key the adapter could not read.
    case unreadable
}
