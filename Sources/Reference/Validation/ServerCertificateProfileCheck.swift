internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// Applies a ``ValidationProfile`` to the chain OpenSSL built: ``prepare(_:)`` before `X509_verify_cert`
/// (the flags OpenSSL applies itself, and the errors it may overlook), ``check(chain:host:)`` after it and the host-name check
/// succeeded (the rules OpenSSL has no switch for). Fails closed: what cannot be read is refused.
struct ServerCertificateProfileCheck: Sendable {

    let profile: ValidationProfile
    let maximumChainDepth: Int?

    init(profile: ValidationProfile, maximumChainDepth: Int? = nil) {
        self.profile = profile
        self.maximumChainDepth = maximumChainDepth
    }

    /// Sets the flags OpenSSL applies during `X509_verify_cert` on a verification context, and returns what it
    /// may overlook.
    func prepare(_ store: OpaquePointer) -> ChainVerifyLeniency {
        if profile.applies(.x509Strict) {
            X509_VERIFY_PARAM_set_flags(X509_STORE_CTX_get0_param(store), UInt(X509_V_FLAG_X509_STRICT))
        }
        return profile.applies(.inclusiveNotAfter) ? .inclusiveNotAfter : []
    }

    /// The profile's refusal of the chain a verification context built, or `nil`.
    func check(store: OpaquePointer, host: String) -> ChainValidationFailure? {
        check(chain: X509_STORE_CTX_get0_chain(store), host: host)
    }

    /// The profile's refusal of a verified chain (leaf first, trust anchor last) for a requested host
    /// (normalized: lowercase, no trailing dot, IPv6 without brackets), or `nil`.
    func check(chain: OpaquePointer?, host: String) -> ChainValidationFailure? {
        let count = Int(cshims_sk_X509_num(chain))
        let certificates = (0..<count).compactMap { index in
            cshims_sk_X509_value(chain, Int32(index)).map { ProfileCertificate(x509: $0, depth: index) }
        }
        guard let leaf = certificates.first, certificates.count == count else {
            return refusal(.other, rule: nil, depth: 0, "no complete verified chain to apply the validation profile to")
        }
        if profile.applies(.maximumChainDepth), let maximumChainDepth, certificates.count - 1 > maximumChainDepth {
            return refusal(
                .chainTooDeep, rule: .maximumChainDepth, depth: maximumChainDepth + 1,
                "the chain is \(certificates.count - 1) deep, more than the maximum \(maximumChainDepth)")
        }
        if profile.applies(.serialNumber) {
            for certificate in certificates {
                if let problem = certificate.serialNumberProblem {
                    return refusal(.invalidSerialNumber, rule: .serialNumber, depth: certificate.depth, problem)
                }
            }
        }
        if profile.applies(.keyStrength) {
            for certificate in certificates {
                if let problem = certificate.keyProblem {
                    return refusal(.forbiddenKey, rule: .keyStrength, depth: certificate.depth, problem)
                }
            }
        }
        if profile.applies(.caAsLeaf), leaf.isCA {
            return refusal(
                .caUsedAsLeaf, rule: .caAsLeaf, depth: 0, "the server's certificate is a CA certificate (basicConstraints cA=TRUE)")
        }
        if profile.applies(.extendedKeyUsage), let failure = extendedKeyUsageRefusal(certificates) { return failure }
        if profile.applies(.constraintExtensions), let failure = constraintRefusal(certificates) { return failure }
        if profile.applies(.dnsNameSyntax) {
            for name in leaf.subjectAltDNSNames where !(name.map(DNSNameSyntax.isValidSubjectAltName) ?? false) {
                return refusal(
                    .malformedName, rule: .dnsNameSyntax, depth: 0,
                    "malformed DNS name \(name.map { "'\($0)'" } ?? "(not printable ASCII)") in subjectAltName")
            }
        }
        if profile.applies(.nameConstraintsOnHost) {
            for certificate in certificates.dropFirst() {
                switch NameConstraintSubtrees.of(certificate.x509) {
                case nil: continue
                case .failure?:
                    return refusal(
                        .invalidConstraints, rule: .nameConstraintsOnHost, depth: certificate.depth, "nameConstraints cannot be decoded")
                case .success(let subtrees)?:
                    if !subtrees.permits(host: host) {
                        return refusal(
                            .nameConstraintViolation, rule: .nameConstraintsOnHost, depth: 0,
                            "the requested host \(host) is outside the name constraints of the CA at depth \(certificate.depth)")
                    }
                }
            }
        }
        if profile.applies(.publicSuffixWildcard) {
            for case let name? in leaf.subjectAltDNSNames where name.hasPrefix("*.") {
                let base = String(name.dropFirst(2)).lowercased()
                guard let isPublic = PublicSuffixList.isPublicSuffix(base) else {
                    return refusal(
                        .publicSuffixWildcard, rule: .publicSuffixWildcard, depth: 0,
                        "no public suffix list to check the wildcard '\(name)' against")
                }
                if isPublic {
                    return refusal(
                        .publicSuffixWildcard, rule: .publicSuffixWildcard, depth: 0,
                        "the wildcard '\(name)' covers the public suffix \(base)")
                }
            }
        }
        return nil
    }

    /// CA/B Forum Baseline Requirements 7.1.2.7.10: a server certificate has an extendedKeyUsage with
    /// serverAuth and without anyExtendedKeyUsage; 7.1.2.1.2: a root has no extendedKeyUsage.
    private func extendedKeyUsageRefusal(_ certificates: [ProfileCertificate]) -> ChainValidationFailure? {
        let leaf = certificates[0]
        if !leaf.hasExtendedKeyUsage {
            return refusal(.extendedKeyUsage, rule: .extendedKeyUsage, depth: 0, "the server's certificate has no extendedKeyUsage")
        }
        if leaf.extendedKeyUsage & UInt32(XKU_ANYEKU) != 0 {
            return refusal(.extendedKeyUsage, rule: .extendedKeyUsage, depth: 0, "the server's certificate allows anyExtendedKeyUsage")
        }
        if leaf.extendedKeyUsage & UInt32(XKU_SSL_SERVER) == 0 {
            return refusal(
                .extendedKeyUsage, rule: .extendedKeyUsage, depth: 0, "the server's certificate's extendedKeyUsage lacks serverAuth")
        }
        if certificates.count > 1, let root = certificates.last, root.hasExtendedKeyUsage {
            return refusal(.extendedKeyUsage, rule: .extendedKeyUsage, depth: root.depth, "the root has an extendedKeyUsage")
        }
        return nil
    }

    /// RFC 5280 4.2.1.10 and 4.2.1.11: name and policy constraints appear only in CA certificates, are
    /// critical, and name constraints have at least one well-formed subtree.
    private func constraintRefusal(_ certificates: [ProfileCertificate]) -> ChainValidationFailure? {
        for certificate in certificates {
            let nameConstraints = certificate.criticality(of: NID_name_constraints)
            let policyConstraints = certificate.criticality(of: NID_policy_constraints)
            let depth = certificate.depth
            if !certificate.isCA, !(nameConstraints.isEmpty && policyConstraints.isEmpty) {
                return refusal(
                    .invalidConstraints, rule: .constraintExtensions, depth: depth,
                    "name or policy constraints in a certificate that is not a CA")
            }
            if nameConstraints.contains(false) {
                return refusal(.invalidConstraints, rule: .constraintExtensions, depth: depth, "nameConstraints is not critical")
            }
            if policyConstraints.contains(false) {
                return refusal(.invalidConstraints, rule: .constraintExtensions, depth: depth, "policyConstraints is not critical")
            }
            switch NameConstraintSubtrees.of(certificate.x509) {
            case nil:
                continue
            case .failure?:
                return refusal(.invalidConstraints, rule: .constraintExtensions, depth: depth, "nameConstraints cannot be decoded")
            case .success(let subtrees)?:
                if subtrees.permitted.isEmpty, subtrees.excluded.isEmpty {
                    return refusal(
                        .invalidConstraints, rule: .constraintExtensions, depth: depth,
                        "nameConstraints has neither permitted nor excluded subtrees")
                }
                if !subtrees.isWellFormed {
                    return refusal(
                        .invalidConstraints, rule: .constraintExtensions, depth: depth, "nameConstraints has a malformed subtree")
                }
            }
        }
        return nil
    }

    private func refusal(_ kind: ChainValidationFailure.Kind, rule: ValidationRule?, depth: Int, _ reason: String) -> ChainValidationFailure
    {
        ChainValidationFailure(kind: kind, code: Int(X509_V_ERR_APPLICATION_VERIFICATION), reason: reason, depth: depth, rule: rule)
    }
}
