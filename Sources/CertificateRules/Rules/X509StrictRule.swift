import NetworkCore

/// OpenSSL's strict X.509 checks (`X509_V_FLAG_X509_STRICT`), over facts, for a stack whose path validation is not
/// OpenSSL's: RFC 5280's structural MUSTs on every certificate of the path but the trust anchor (which RFC 5280 6.1
/// takes as a name and a key). The reference stack has OpenSSL make these checks during verification, so it does not
/// apply this rule; a refusal has the kind `strict-profile` and the rule `x509-strict`, as OpenSSL's has there.
struct X509StrictRule: ChainRule {
    func refusal(of chain: ChainFacts) -> ChainValidationFailure? {
        for certificate in chain.issued {
            if let reason = problem(certificate, isLeaf: certificate.depth == 0) {
                return ChainValidationFailure(
                    kind: .strictProfile, code: ChainValidationFailure.applicationVerificationCode, reason: reason,
                    depth: certificate.depth, rule: .x509Strict)
            }
        }
        return nil
    }

    private func problem(_ certificate: CertificateFacts, isLeaf: Bool) -> String? {
        typealias OID = ExtensionFacts.OID
        if certificate.version < 3, !certificate.extensions.isEmpty { return "extensions in a certificate before version 3" }
        if case .ec(nil) = certificate.publicKey { return "EC key with explicit parameters" }
        if !certificate.signatureAlgorithmsMatch { return "the signature algorithm differs from the one the certificate was signed with" }
        if !certificate.isCA, certificate.pathLengthConstraint != nil { return "pathLenConstraint in a certificate that is not a CA" }
        if certificate.isCA, certificate.pathLengthConstraint != nil, certificate.keyUsageAllowsCertificateSigning == false {
            return "pathLenConstraint without keyCertSign in keyUsage"
        }
        if !certificate.isCA, certificate.keyUsageAllowsCertificateSigning == true {
            return "keyCertSign in a certificate that is not a CA"
        }
        if certificate.issuerIsEmpty { return "empty issuer name" }
        if certificate.subjectIsEmpty, certificate.isCA || !certificate.has(OID.subjectAltName) {
            return "empty subject name"
        }
        if certificate.subjectAltNameIsEmpty { return "empty subjectAltName" }
        if certificate.subjectIsEmpty, certificate.criticality(of: OID.subjectAltName).contains(false) {
            return "empty subject with a subjectAltName that is not critical"
        }
        if certificate.isCA, certificate.criticality(of: OID.basicConstraints).contains(false) {
            return "a CA's basicConstraints is not critical"
        }
        if certificate.isCA, certificate.keyUsageAllowsCertificateSigning == nil { return "a CA certificate without keyUsage" }
        if !certificate.isSelfIssued, !certificate.has(OID.authorityKeyIdentifier) { return "no authorityKeyIdentifier" }
        if certificate.isCA, !certificate.has(OID.subjectKeyIdentifier) { return "a CA certificate without subjectKeyIdentifier" }
        if certificate.criticality(of: OID.authorityKeyIdentifier).contains(true) { return "authorityKeyIdentifier is critical" }
        if certificate.criticality(of: OID.subjectKeyIdentifier).contains(true) { return "subjectKeyIdentifier is critical" }
        return nil
    }
}
