import CertificateRules
import NetworkCore
import Testing

@Suite("OpenSSL's strict X.509 checks over facts, for a stack whose path validation is not OpenSSL's")
struct X509StrictRuleTests {
    typealias Example = ChainFactsExamples

    let judging = ProfileRules(profile: .strict, judgesX509Strict: true)

    /// The example intermediate, well formed for the strict checks too.
    static let intermediate = Example.intermediate {
        $0.keyUsageAllowsCertificateSigning = true
        $0.extensions.append(ExtensionFacts(oid: ExtensionFacts.OID.subjectKeyIdentifier))
    }

    @Test("a chain that meets the strict checks passes them, and they are judged only when a stack asks")
    func judgedOnlyWhenAsked() {
        #expect(judging.refusal(of: Example.chain(intermediate: Self.intermediate)) == nil)
        #expect(judging.refusal(of: Example.chain())?.rule == .x509Strict)
        #expect(ProfileRules(profile: .strict).refusal(of: Example.chain()) == nil)
        #expect(ProfileRules(profile: .compatible, judgesX509Strict: true).refusal(of: Example.chain()) == nil)
    }

    @Test(
        "each strict check refuses, at the certificate that breaks it",
        arguments: [
            ("leaf pathLenConstraint", 0, "pathLenConstraint in a certificate that is not a CA"),
            ("leaf keyCertSign", 0, "keyCertSign in a certificate that is not a CA"),
            ("leaf without authorityKeyIdentifier", 0, "no authorityKeyIdentifier"),
            ("leaf empty subject without subjectAltName", 0, "empty subject name"),
            ("leaf empty subjectAltName", 0, "empty subjectAltName"),
            ("leaf empty issuer", 0, "empty issuer name"),
            ("leaf version 1 with extensions", 0, "extensions in a certificate before version 3"),
            ("leaf explicit curve", 0, "EC key with explicit parameters"),
            ("leaf signature algorithms differ", 0, "the signature algorithm differs from the one the certificate was signed with"),
            ("CA without subjectKeyIdentifier", 1, "a CA certificate without subjectKeyIdentifier"),
            ("CA without keyUsage", 1, "a CA certificate without keyUsage"),
            ("CA basicConstraints not critical", 1, "a CA's basicConstraints is not critical"),
            ("CA pathLenConstraint without keyCertSign", 1, "pathLenConstraint without keyCertSign in keyUsage"),
            ("CA critical authorityKeyIdentifier", 1, "authorityKeyIdentifier is critical"),
        ])
    func strictChecks(change: String, depth: Int, reason: String) throws {
        var leaf = Example.leaf
        var intermediate = Self.intermediate
        switch change {
        case "leaf pathLenConstraint": leaf.pathLengthConstraint = 0
        case "leaf keyCertSign": leaf.keyUsageAllowsCertificateSigning = true
        case "leaf without authorityKeyIdentifier": leaf.extensions.removeAll { $0.oid == ExtensionFacts.OID.authorityKeyIdentifier }
        case "leaf empty subject without subjectAltName":
            leaf.subjectIsEmpty = true
            leaf.extensions.removeAll { $0.oid == ExtensionFacts.OID.subjectAltName }
        case "leaf empty subjectAltName": leaf.subjectAltNameIsEmpty = true
        case "leaf empty issuer": leaf.issuerIsEmpty = true
        case "leaf version 1 with extensions": leaf.version = 1
        case "leaf explicit curve": leaf.publicKey = .ec(curve: nil)
        case "leaf signature algorithms differ": leaf.signatureAlgorithmsMatch = false
        case "CA without subjectKeyIdentifier": intermediate.extensions.removeAll { $0.oid == ExtensionFacts.OID.subjectKeyIdentifier }
        case "CA without keyUsage": intermediate.keyUsageAllowsCertificateSigning = nil
        case "CA basicConstraints not critical": intermediate.extensions[0].isCritical = false
        case "CA pathLenConstraint without keyCertSign":
            intermediate.pathLengthConstraint = 0
            intermediate.keyUsageAllowsCertificateSigning = false
        default: intermediate.extensions[1].isCritical = true
        }
        let failure = try #require(judging.refusal(of: Example.chain(leaf: leaf, intermediate: intermediate)))
        #expect(failure == ChainValidationFailure(kind: .strictProfile, code: 50, reason: reason, depth: depth, rule: .x509Strict))
    }

    @Test("the trust anchor's own structure is not judged, and a self-issued certificate needs no authorityKeyIdentifier")
    func anchorIsNotJudged() {
        let root = Example.root {
            $0.extensions = []
            $0.keyUsageAllowsCertificateSigning = nil
            $0.isSelfIssued = true
        }
        #expect(judging.refusal(of: Example.chain(intermediate: Self.intermediate, root: root)) == nil)
    }
}
