import COpenSSL
import COpenSSLShims
import Foundation
@testable import Reference
import TestTraits
import Testing

@Suite("Validation profiles over the fixture chains", .scaledTimeLimit(minutes: 1))
struct ValidationProfileTests {

    // MARK: Name constraints

    @Test("strict applies a CA's name constraints to the requested host, not only to the leaf's names")
    func nameConstraintsApplyToRequestedHost() throws {
        try expectRefusedByStrictOnly("profile-nc-wildcard-bypass", kind: .nameConstraintViolation, rule: .nameConstraintsOnHost)
    }

    @Test("strict refuses a name constraint whose DNS base is malformed")
    func malformedNameConstraintRefused() throws {
        try expectRefusedByStrictOnly("profile-nc-malformed", kind: .invalidConstraints, rule: .constraintExtensions)
    }

    @Test("strict refuses name constraints in a leaf")
    func nameConstraintsInLeafRefused() throws {
        try expectRefusedByStrictOnly("profile-nc-in-leaf", kind: .invalidConstraints, rule: .constraintExtensions)
    }

    @Test("strict refuses name constraints with neither permitted nor excluded subtrees")
    func emptyNameConstraintsRefused() throws {
        try expectRefusedByStrictOnly("profile-nc-empty", kind: .invalidConstraints, rule: .constraintExtensions)
    }

    @Test("strict refuses name constraints not marked critical")
    func nonCriticalNameConstraintsRefused() throws {
        try expectRefusedByStrictOnly("profile-nc-not-critical", kind: .invalidConstraints, rule: .constraintExtensions)
    }

    @Test("strict refuses policy constraints not marked critical")
    func nonCriticalPolicyConstraintsRefused() throws {
        try expectRefusedByStrictOnly("profile-pc-not-critical", kind: .invalidConstraints, rule: .constraintExtensions)
    }

    // MARK: OpenSSL's strict X.509 checks

    @Test("strict refuses a leaf without authorityKeyIdentifier")
    func leafWithoutAKIRefused() throws {
        try expectRefusedByStrictOnly("profile-strict-leaf-no-aki", kind: .strictProfile, rule: .x509Strict)
    }

    @Test("strict refuses an intermediate without authorityKeyIdentifier")
    func intermediateWithoutAKIRefused() throws {
        try expectRefusedByStrictOnly("profile-strict-intermediate-no-aki", kind: .strictProfile, rule: .x509Strict)
    }

    @Test("strict refuses a CA without subjectKeyIdentifier")
    func caWithoutSKIRefused() throws {
        try expectRefusedByStrictOnly("profile-strict-ca-no-ski", kind: .strictProfile, rule: .x509Strict)
    }

    @Test(
        "strict judges no trust anchor by its own serial, structure or extensions (RFC 5280 6.1)",
        arguments: [
            "profile-root-serial-zero", "profile-strict-root-no-bc", "profile-strict-root-bc-not-critical", "profile-root-eku",
            "profile-root-aki-no-keyid",
        ])
    func trustAnchorIsNotJudged(name: String) throws {
        #expect(ProfileScenario.named(name).verdict(.strict).expected == "valid", "manifest")
        #expect(throws: Never.self) { try ProfileScenario.named(name).verify(.strictForAllRoots).get() }
    }

    @Test("strict refuses keyCertSign in a leaf that is not a CA")
    func keyCertSignInLeafRefused() throws {
        try expectRefusedByStrictOnly("profile-strict-leaf-keycertsign", kind: .strictProfile, rule: .x509Strict)
    }

    @Test("strict refuses an empty subject with a non-critical subjectAltName")
    func emptySubjectWithNonCriticalSANRefused() throws {
        try expectRefusedByStrictOnly("profile-strict-empty-subject", kind: .strictProfile, rule: .x509Strict)
    }

    @Test("strict refuses an empty issuer name; compatible accepts it")
    func emptyIssuerNameRefusedByStrictOnly() throws {
        try expectRefusedByStrictOnly("profile-empty-issuer-name", kind: .strictProfile, rule: .x509Strict)
    }

    // MARK: Leaf, names, keys, usages, serials

    @Test("strict refuses a CA certificate as the server's leaf")
    func caAsLeafRefused() throws {
        try expectRefusedByStrictOnly("profile-ca-as-leaf", kind: .caUsedAsLeaf, rule: .caAsLeaf)
    }

    @Test("strict refuses a wildcard over a public suffix")
    func publicSuffixWildcardRefused() throws {
        try expectRefusedByStrictOnly("profile-public-suffix-wildcard", kind: .publicSuffixWildcard, rule: .publicSuffixWildcard)
    }

    @Test("strict refuses an underscore in a subjectAltName DNS name")
    func underscoreInDNSNameRefused() throws {
        try expectRefusedByStrictOnly("profile-san-underscore", kind: .malformedName, rule: .dnsNameSyntax)
    }

    @Test("strict refuses a leading period in a subjectAltName DNS name")
    func leadingPeriodInDNSNameRefused() throws {
        try expectRefusedByStrictOnly("profile-san-leading-period", kind: .malformedName, rule: .dnsNameSyntax)
    }

    @Test("strict refuses an RSA key under 2048 bits")
    func shortRSAKeyRefused() throws {
        try expectRefusedByStrictOnly("profile-key-rsa2040", kind: .forbiddenKey, rule: .keyStrength)
    }

    @Test("strict refuses an RSA modulus that is not a multiple of 8 bits")
    func oddRSAModulusRefused() throws {
        try expectRefusedByStrictOnly("profile-key-rsa2052", kind: .forbiddenKey, rule: .keyStrength)
    }

    @Test("strict refuses a DSA key")
    func dsaKeyRefused() throws {
        try expectRefusedByStrictOnly("profile-key-dsa", kind: .forbiddenKey, rule: .keyStrength)
    }

    @Test("both profiles refuse a P-192 CA key: the TLS security level's key-size floor, before the profile")
    func p192KeyRefused() throws {
        let scenario = ProfileScenario.named("profile-key-p192")
        for profile in [ValidationProfile.strict, .compatible] {
            guard case .failure(let failure) = try scenario.verify(profile) else {
                Issue.record("\(profile) accepted a P-192 CA key"); continue
            }
            #expect(failure.kind == .forbiddenKey, "\(failure)")
            #expect(failure.depth == 1, "\(failure)")
            #expect(failure.code == 67, "X509_V_ERR_CA_KEY_TOO_SMALL: \(failure)")
        }
    }

    @Test("strict refuses a serial number of zero")
    func zeroSerialRefused() throws {
        try expectRefusedByStrictOnly("profile-serial-zero", kind: .invalidSerialNumber, rule: .serialNumber)
    }

    @Test("strict refuses a negative serial number")
    func negativeSerialRefused() throws {
        try expectRefusedByStrictOnly("profile-serial-negative", kind: .invalidSerialNumber, rule: .serialNumber)
    }

    @Test("strict refuses a serial number longer than 20 octets")
    func longSerialRefused() throws {
        try expectRefusedByStrictOnly("profile-serial-too-long", kind: .invalidSerialNumber, rule: .serialNumber)
    }

    // MARK: Both profiles

    @Test(
        "both profiles refuse a leaf whose extendedKeyUsage lacks serverAuth, anyExtendedKeyUsage alone included",
        arguments: ["profile-eku-any-only", "profile-eku-code-signing", "client-auth-only-eku"])
    func leafWithoutServerAuthRefused(name: String) throws {
        let scenario = ProfileScenario.named(name)
        for profile in [ValidationProfile.strict, .compatible] {
            let failure = try #require(try scenario.verify(profile).failure, "\(profile) accepted \(name)")
            #expect(failure.kind == .invalidPurpose, "\(profile): \(failure)")
            #expect(failure.depth == 0)
        }
    }

    @Test("the profile's extendedKeyUsage rule refuses a leaf without serverAuth even where OpenSSL's purpose check is not asked")
    func extendedKeyUsageRuleRefusesWithoutPurpose() throws {
        let scenario = ProfileScenario.named("profile-eku-any-only")
        let chain = try #require(
            OwnedCertificates.parsing(der: try ServerCertificate.certificates(pemFile: Fixtures.path(scenario.served!)).map(\.der)))
        let stack = try #require(cshims_sk_X509_new_null())
        defer { OPENSSL_sk_free(stack) }  // the certificates belong to `chain`
        chain.all.forEach { _ = cshims_sk_X509_push(stack, $0) }
        let failure = try #require(ServerCertificateProfileCheck(profile: .strict).check(chain: stack, host: "localhost", publicRoot: true))
        #expect(failure.kind == .extendedKeyUsage)
        #expect(failure.rule == .extendedKeyUsage)
        #expect(ServerCertificateProfileCheck(profile: .compatible).check(chain: stack, host: "localhost", publicRoot: true) == nil)
    }

    @Test("both profiles accept a certificate checked exactly at its notAfter (RFC 5280: inclusive)")
    func notAfterIsInclusive() throws {
        let scenario = ProfileScenario.named("profile-valid-at-not-after")
        for profile in [ValidationProfile.strict, .compatible] {
            let result = try scenario.verify(profile)
            #expect((try? result.get()) != nil, "\(profile): \(result)")
        }
    }

    @Test("both profiles refuse a certificate one second after its notAfter")
    func expiredOneSecondAfterNotAfter() throws {
        let scenario = ProfileScenario.named("profile-expired-after-not-after")
        for profile in [ValidationProfile.strict, .compatible] {
            let failure = try #require(try scenario.verify(profile).failure)
            #expect(failure.kind == .expired)
            #expect(failure.depth == 0)
        }
    }

    @Test("a chain deeper than the configured maximum is refused under either profile")
    func chainDeeperThanMaximumRefused() throws {
        let scenario = ProfileScenario.named("valid-two-intermediates")
        for profile in [ValidationProfile.strict, .compatible] {
            let failure = try #require(try scenario.verify(profile, maximumChainDepth: 2).failure)
            #expect(failure.kind == .chainTooDeep)
            #expect(failure.rule == .maximumChainDepth)
            #expect(failure.depth == 3)
            #expect((try? scenario.verify(profile, maximumChainDepth: 3).get()) != nil)
        }
    }

    // MARK: The whole catalogue

    @Test(
        "every profile scenario gets the manifest's verdict and depth under each profile",
        arguments: ProfileScenario.all.filter { $0.kind == "profile" }.map(\.name))
    func manifestVerdicts(name: String) throws {
        let scenario = ProfileScenario.named(name)
        for profile in [ValidationProfile.strict, .compatible] {
            let verdict = scenario.verdict(profile)
            switch try scenario.verify(profile) {
            case .success:
                #expect(verdict.expected == "valid", "\(profile) accepted")
            case .failure(let failure):
                #expect(failure.kind.rawValue == verdict.expected, "\(profile): \(failure)")
                #expect(failure.depth == verdict.depth, "\(profile): \(failure)")
            }
        }
    }

    @Test(
        "strict accepts every standard scenario standard validation accepts",
        arguments: ProfileScenario.all.filter { $0.kind == "chain" && $0.expected == "valid" }.map(\.name))
    func strictAcceptsValidStandardScenarios(name: String) throws {
        let result = try ProfileScenario.named(name).verify(.strict)
        #expect((try? result.get()) != nil, "\(result)")
    }
}
