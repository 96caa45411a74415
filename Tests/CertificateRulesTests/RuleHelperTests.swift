@testable import CertificateRules
import NetworkCore
import Testing

@Suite("The validation profile's name rules")
struct RuleHelperTests {

    @Test(
        "an address's canonical text is dotted-decimal or RFC 5952's, whatever spelling it was parsed from",
        arguments: [
            ("127.0.0.1", "127.0.0.1"), ("::1", "::1"), ("0:0:0:0:0:0:0:1", "::1"), ("2001:DB8::0:1", "2001:db8::1"),
            ("2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1"), ("2001:0db8::1", "2001:db8::1"), ("::ffff:1.2.3.4", "::ffff:1.2.3.4"),
        ])
    func canonicalAddressText(spelling: String, canonical: String) throws {
        let bytes = try #require(IPAddressLiteral.bytes(of: spelling))
        #expect(IPAddressLiteral.canonicalText(of: bytes) == canonical)
        #expect(IPAddressLiteral.canonicalText(of: [1, 2, 3]) == nil)
    }

    @Test(
        "subjectAltName DNS names: host names and whole-label wildcards only",
        arguments: [
            ("localhost", true), ("api.example.test", true), ("xn--bcher-kva.example", true), ("*.example.test", true),
            ("bad_name.example.test", false), (".example.test", false), ("example..test", false), ("example.test.", false),
            ("-a.example.test", false), ("a-.example.test", false), ("f*o.example.test", false), ("*.test", false),
            ("api.*.example.test", false), (String(repeating: "a", count: 64) + ".test", false), ("", false),
        ])
    func subjectAltNameSyntax(name: String, valid: Bool) {
        #expect(DNSNameSyntax.isValidSubjectAltName(name) == valid)
    }

    @Test(
        "name constraint DNS bases are host names, without the leading period of URI and mail constraints",
        arguments: [
            ("example.com", true), (".example.com", false), ("..example.com", false), ("bad..name", false), ("bad_name.com", false),
        ])
    func constraintSyntax(base: String, valid: Bool) {
        #expect(DNSNameSyntax.isValidConstraint(base) == valid)
    }

    @Test("a requested host is checked against DNS subtrees on whole labels")
    func dnsSubtrees() {
        let excluding = NameConstraintSubtrees(permitted: [], excluded: [.dns("bar.example.com")])
        #expect(!excluding.permits(host: "bar.example.com"))
        #expect(!excluding.permits(host: "x.bar.example.com"))
        #expect(excluding.permits(host: "foobar.example.com"))
        let permitting = NameConstraintSubtrees(permitted: [.dns(".example.com")], excluded: [])
        #expect(permitting.permits(host: "api.example.com"))
        #expect(!permitting.permits(host: "example.com"))
        #expect(!permitting.permits(host: "example.org"))
        #expect(permitting.permits(host: "127.0.0.1"))  // no IP subtree: IP addresses are unconstrained
    }

    @Test("a requested IP address is checked against IP subtrees with their mask")
    func ipSubtrees() {
        let subtrees = NameConstraintSubtrees(permitted: [.ip(address: [10, 0, 0, 0], mask: [255, 0, 0, 0])], excluded: [])
        #expect(subtrees.permits(host: "10.1.2.3"))
        #expect(!subtrees.permits(host: "11.1.2.3"))
        #expect(!subtrees.permits(host: "::1"))
        #expect(subtrees.permits(host: "example.com"))
        #expect(subtrees.isWellFormed)
        #expect(!NameConstraintSubtrees(permitted: [.ip(address: [10, 0, 0, 0], mask: [255, 0, 255, 0])], excluded: []).isWellFormed)
    }

    @Test(
        "public suffixes come from the ICANN section of the list, unknown top-level labels included",
        arguments: [
            ("co.uk", true), ("com", true), ("test", true), ("example.co.uk", false), ("example.test", false), ("github.io", false),
        ])
    func publicSuffixes(name: String, isPublic: Bool) {
        #expect(PublicSuffixList.isPublicSuffix(name) == isPublic)
    }
}
