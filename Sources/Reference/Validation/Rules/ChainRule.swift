internal import COpenSSL
import NetworkCore

/// One rule of a validation profile beyond OpenSSL's own verification: a small type that looks at the chain
/// OpenSSL verified and either passes it or says why not. A profile is the list of these its rules name
/// (``ServerCertificateProfileCheck/rules(of:maximumChainDepth:)``), applied in order; the first refusal stands.
protocol ChainRule: Sendable {
    /// The refusal of a verified chain, or `nil`.
    func refusal(of chain: VerifiedChain) -> ChainValidationFailure?
}

/// A chain OpenSSL verified, as the profile's rules read it.
struct VerifiedChain {
    /// Leaf first, trust anchor last; never empty.
    let certificates: [ProfileCertificate]
    /// The requested host (normalized: lowercase, no trailing dot, IPv6 without brackets).
    let host: String

    var leaf: ProfileCertificate { certificates[0] }

    /// The certificates a CA issued on the path: every one but the trust anchor, which RFC 5280 6.1 takes as a name
    /// and a key, outside the path (a root of the system store may have serial 0 or no key identifiers, and
    /// still be the anchor people trust). A leaf trusted directly is the whole chain and stays judged as the
    /// server's certificate.
    var issued: ArraySlice<ProfileCertificate> { certificates.count > 1 ? certificates.dropLast() : certificates[...] }
}

extension ChainValidationFailure {
    /// A refusal by a profile rule: OpenSSL's code for an application's own verdict, and the rule's name.
    static func refusal(_ kind: Kind, by rule: ValidationRule, depth: Int, _ reason: String) -> ChainValidationFailure {
        ChainValidationFailure(kind: kind, code: Int(X509_V_ERR_APPLICATION_VERIFICATION), reason: reason, depth: depth, rule: rule)
    }
}
