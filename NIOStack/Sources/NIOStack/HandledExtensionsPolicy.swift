import SwiftASN1
import X509

/// A policy that passes every chain and marks extensions as handled, so that swift-certificates' verifier does not
/// refuse a certificate for carrying them critical: the stack judges them itself (extendedKeyUsage by its purpose
/// check and the profile, the rest by the profile's rules over a path built on signatures alone).
struct HandledExtensionsPolicy: VerifierPolicy {
    let verifyingCriticalExtensions: [ASN1ObjectIdentifier]

    func chainMeetsPolicyRequirements(chain: UnverifiedCertificateChain) -> PolicyEvaluationResult { .meetsPolicy }

    /// extendedKeyUsage, which the stack's purpose check reads.
    static let extendedKeyUsage = HandledExtensionsPolicy(verifyingCriticalExtensions: [.X509ExtensionID.extendedKeyUsage])

    /// Every extension RFC 5280's policy handles, and extendedKeyUsage: for building a path on signatures alone.
    static let pathOnly = HandledExtensionsPolicy(verifyingCriticalExtensions: [
        .X509ExtensionID.basicConstraints, .X509ExtensionID.keyUsage, .X509ExtensionID.nameConstraints,
        .X509ExtensionID.extendedKeyUsage, .X509ExtensionID.subjectAlternativeName, [2, 5, 29, 36], [2, 5, 29, 32],
    ])
}
