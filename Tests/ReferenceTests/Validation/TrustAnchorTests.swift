import COpenSSL
import COpenSSLShims
import Foundation
import Pinning
@testable import Reference
import TestTraits
import Testing

/// A trust anchor is a name and a key (RFC 5280 6.1): the profile's rules judge what a CA issued, not the anchor, and
/// the Baseline Requirements' rules judge chains that end at a public root only.
@Suite("Trust anchors and the origin of a root", .scaledTimeLimit(minutes: 1))
struct TrustAnchorTests {
    private static let time = Date(timeIntervalSince1970: 2_500_000_000)

    /// Debian's bundle of the system store, which this libcurl is built to load.
    private static let systemBundle = "/etc/ssl/certs/ca-certificates.crt"

    @Test("every root of the system store passes the strict profile's rules as the anchor of a chain")
    func everySystemRootPassesAsAnAnchor() throws {
        let roots = try ServerCertificate.certificates(pemFile: Self.systemBundle)
        #expect(roots.count > 100)
        let served = try ServerCertificate.certificates(pemFile: Fixtures.path("valid-ec256/served.pem"))
        // A root's name constraints rightly bind the host asked for: that rule is left out here.
        let rules = Set(ValidationRule.all).subtracting([.nameConstraintsOnHost])
        let check = ServerCertificateProfileCheck(profile: ValidationProfile(name: "anchors", rules: rules, rulesForPrivateRoots: rules))
        var refused: [String] = []
        for root in roots {
            let chain = try #require(OwnedCertificates.parsing(der: (served + [root]).map(\.der)))
            let stack = try #require(cshims_sk_X509_new_null())
            defer { OPENSSL_sk_free(stack) }  // the certificates belong to `chain`
            chain.all.forEach { _ = cshims_sk_X509_push(stack, $0) }
            if let failure = check.check(chain: stack, host: "localhost", publicRoot: true) {
                refused.append("\(root.subject): \(failure)")
            }
        }
        #expect(refused.isEmpty, "\(refused.count) of \(roots.count) roots refused: \(refused.prefix(5))")
        // Nine of them have serial number 0, the reason this test exists.
        #expect(roots.contains { $0.subject.contains("Starfield Root Certificate Authority - G2") })
    }

    @Test("a private root's chain with a commonName outside its subjectAltName is accepted by default")
    func privateRootSkipsTheBaselineRequirements() throws {
        let scenario = ProfileScenario.named("profile-cn-not-in-san")
        #expect(throws: Never.self) { try scenario.verify(.strict, publicRoots: false).get() }
        #expect(try scenario.verify(.strict, publicRoots: true).failure?.kind == .commonNameNotInSubjectAltName)
        #expect(try scenario.verify(.strictForAllRoots, publicRoots: false).failure?.kind == .commonNameNotInSubjectAltName)
    }

    @Test("a private root's chain is still held to RFC 5280 and the security rules")
    func privateRootKeepsTheOtherRules() throws {
        for (name, kind) in [("profile-san-underscore", ChainValidationFailure.Kind.malformedName), ("profile-key-rsa2040", .forbiddenKey)]
        {
            #expect(try ProfileScenario.named(name).verify(.strict, publicRoots: false).failure?.kind == kind, "\(name)")
        }
    }

    @Test("a root added beside the system store is private, a root named public is not")
    func addedRootsArePrivate() throws {
        let root = try String(contentsOfFile: Fixtures.path("roots/root-a.pem"), encoding: .utf8)
        let served = try ServerCertificate.certificates(pemFile: Fixtures.path("profile-cn-not-in-san/served.pem"))
        let added = try ChainVerifier(trustRoots: .system(adding: root))
        #expect(added.verify(served, host: "localhost", at: Self.time).success != nil)
        let named = try ChainVerifier(trustRoots: .only(publicPEM: root))
        #expect(named.verify(served, host: "localhost", at: Self.time).failure?.kind == .commonNameNotInSubjectAltName)
    }

    @Test("the baseline-only rules are the four the Baseline Requirements alone impose")
    func baselineRequirementsRules() {
        #expect(
            Set(ValidationRule.all.filter(\.isBaselineRequirementsOnly))
                == [.serialNumber, .extendedKeyUsage, .publicSuffixWildcard, .subjectNames])
        #expect(
            ValidationProfile.strict.rulesForPrivateRoots
                == Set(ValidationRule.all).subtracting(ValidationProfile.strict.rules.filter(\.isBaselineRequirementsOnly)))
        #expect(ValidationProfile.compatible.rulesForPrivateRoots == ValidationProfile.compatible.rules)
    }
}
