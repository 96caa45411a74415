internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore

/// Applies a ``ValidationProfile`` to the chain OpenSSL built: ``prepare(_:)`` before `X509_verify_cert` (the flags
/// OpenSSL applies itself, and the errors it may overlook), ``check(chain:host:publicRoot:)`` after it (the profile's own
/// ``ChainRule``s, in order). Fails closed: what cannot be read is refused.
struct ServerCertificateProfileCheck: Sendable {

    let profile: ValidationProfile
    /// The profile's own rules for chains that end at a public root, in the order they are applied.
    let rules: [any ChainRule]
    /// The same for chains that end at a private root.
    let rulesForPrivateRoots: [any ChainRule]

    init(profile: ValidationProfile, maximumChainDepth: Int? = nil) {
        self.profile = profile
        rules = Self.rules(of: profile, publicRoot: true, maximumChainDepth: maximumChainDepth)
        rulesForPrivateRoots = Self.rules(of: profile, publicRoot: false, maximumChainDepth: maximumChainDepth)
    }

    /// The rules a profile names for a root's origin, in a fixed order: the chain's shape, then each certificate's
    /// fields, then the names.
    static func rules(of profile: ValidationProfile, publicRoot: Bool, maximumChainDepth: Int?) -> [any ChainRule] {
        let all: [(ValidationRule, (any ChainRule)?)] = [
            (.maximumChainDepth, maximumChainDepth.map(MaximumChainDepthRule.init)),
            (.serialNumber, SerialNumberRule()),
            (.extensionEncoding, ExtensionEncodingRule()),
            (.keyIdentifiers, KeyIdentifiersRule()),
            (.keyStrength, KeyStrengthRule()),
            (.caAsLeaf, CAAsLeafRule()),
            (.extendedKeyUsage, ExtendedKeyUsageRule()),
            (.constraintExtensions, ConstraintExtensionsRule()),
            (.dnsNameSyntax, DNSNameSyntaxRule()),
            (.subjectNames, SubjectNamesRule()),
            (.nameConstraintsOnHost, NameConstraintsOnHostRule()),
            (.publicSuffixWildcard, PublicSuffixWildcardRule()),
        ]
        return all.compactMap { rule, check in profile.applies(rule, publicRoot: publicRoot) ? check : nil }
    }

    /// Sets the flags OpenSSL applies during `X509_verify_cert` on a verification context, and returns what it
    /// may overlook.
    func prepare(_ store: OpaquePointer) -> ChainVerifyLeniency {
        var leniency: ChainVerifyLeniency = profile.applies(.inclusiveNotAfter) ? .inclusiveNotAfter : []
        if profile.applies(.x509Strict) {
            X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(store), UInt(X509_V_FLAG_X509_STRICT))
            leniency.insert(.anchorStructure)
        }
        return leniency
    }

    /// The profile's refusal of the chain a verification context built, or `nil`.
    func check(store: OpaquePointer, host: String, privateAnchors: PrivateAnchors) -> ChainValidationFailure? {
        let chain = X509_STORE_CTX_get0_chain(store)
        let anchor = cshims_sk_X509_value(chain, cshims_sk_X509_num(chain) - 1)
        return check(chain: chain, host: host, publicRoot: anchor.map(privateAnchors.isPublic) ?? true)
    }

    /// The profile's refusal of a verified chain (leaf first, trust anchor last) for a requested host
    /// (normalized: lowercase, no trailing dot, IPv6 without brackets), with the rules for its anchor's origin, or `nil`.
    func check(chain: OpaquePointer?, host: String, publicRoot: Bool) -> ChainValidationFailure? {
        let count = Int(cshims_sk_X509_num(chain))
        let certificates = (0..<count).compactMap { index in
            cshims_sk_X509_value(chain, Int32(index)).map { ProfileCertificate(x509: $0, depth: index) }
        }
        guard !certificates.isEmpty, certificates.count == count else {
            return ChainValidationFailure(
                kind: .other, code: Int(X509_V_ERR_APPLICATION_VERIFICATION),
                reason: "no complete verified chain to apply the validation profile to", depth: 0)
        }
        let verified = VerifiedChain(certificates: certificates, host: host)
        for rule in publicRoot ? rules : rulesForPrivateRoots {
            if let refusal = rule.refusal(of: verified) { return refusal }
        }
        return nil
    }
}
