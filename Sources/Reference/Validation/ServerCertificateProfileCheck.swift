internal import COpenSSL
internal import COpenSSLShims
import Foundation
import CertificateRules
import NetworkCore

/// Applies a ``ValidationProfile`` to the chain OpenSSL built: ``prepare(_:)`` before `X509_verify_cert` (the flags
/// OpenSSL applies itself, and the errors it may overlook), ``check(chain:host:publicRoot:)`` after it (the profile's own
/// rules, ``ProfileRules``, over the chain's facts). Fails closed: what cannot be read is refused.
struct ServerCertificateProfileCheck: Sendable {

    let profile: ValidationProfile
    /// The profile's own rules, over the facts of the chain.
    let rules: ProfileRules

    init(profile: ValidationProfile, maximumChainDepth: Int? = nil) {
        self.profile = profile
        rules = ProfileRules(profile: profile, maximumChainDepth: maximumChainDepth)
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
        guard rules.judgesChains else { return nil }
        let count = Int(cshims_sk_X509_num(chain))
        let certificates = (0..<count).compactMap { index in
            cshims_sk_X509_value(chain, Int32(index)).map { CertificateFacts(openSSL: $0, depth: index) }
        }
        guard certificates.count == count, let facts = ChainFacts(certificates: certificates, host: host, anchorIsPublic: publicRoot) else {
            return ChainValidationFailure(
                kind: .other, code: Int(X509_V_ERR_APPLICATION_VERIFICATION),
                reason: "no complete verified chain to apply the validation profile to", depth: 0)
        }
        return rules.refusal(of: facts)
    }
}
