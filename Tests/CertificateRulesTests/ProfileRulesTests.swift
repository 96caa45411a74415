import CertificateRules
import NetworkCore
import Testing

@Suite("The profile's rules over certificate facts")
struct ProfileRulesTests {
    typealias Example = ChainFactsExamples

    let strict = ProfileRules(profile: .strict, maximumChainDepth: 4)

    @Test("a chain that breaks no rule passes the strict profile, under a public or a private root")
    func wellFormedChainPasses() {
        #expect(strict.refusal(of: Example.chain()) == nil)
        #expect(strict.refusal(of: Example.chain(anchorIsPublic: false)) == nil)
    }

    @Test("the compatible profile without a depth limit judges no chain")
    func compatibleProfileJudgesNothing() {
        #expect(!ProfileRules(profile: .compatible).judgesChains)
        #expect(ProfileRules(profile: .compatible, maximumChainDepth: 4).judgesChains)
        #expect(ProfileRules(profile: .compatible).refusal(of: Example.chain(leaf: Example.leaf { $0.isCA = true })) == nil)
    }

    @Test(
        "a serial number a CA issued is positive and at most 20 octets",
        arguments: [
            ([UInt8](), "unreadable serial number"), ([0x00], "serial number is zero"), ([0x80, 0x01], "serial number is negative"),
            ([0x01] + [UInt8](repeating: 0xff, count: 20), "serial number is 21 octets (at most 20)"),
        ])
    func serialNumbers(octets: [UInt8], reason: String) throws {
        let failure = try #require(strict.refusal(of: Example.chain(intermediate: Example.intermediate { $0.serialNumber = octets })))
        #expect(failure == ChainValidationFailure(kind: .invalidSerialNumber, code: 50, reason: reason, depth: 1, rule: .serialNumber))
        #expect(
            strict.refusal(
                of: Example.chain(intermediate: Example.intermediate { $0.serialNumber = [0x7f] + [UInt8](repeating: 0, count: 19) }))
                == nil)
    }

    @Test("the trust anchor's own serial number, extensions and key identifiers are not judged")
    func anchorIsNotJudged() {
        let anchor = Example.root {
            $0.serialNumber = [0x00]
            $0.extensions = [ExtensionFacts(oid: "2.5.29.32", isWellFormed: false), ExtensionFacts(oid: "2.5.29.32")]
            $0.authorityKeyIdentifierHasKeyIdentifier = false
            $0.nameConstraints = .decoded(NameConstraintSubtrees(permitted: [.dns(".example.com")]))
        }
        #expect(strict.refusal(of: Example.chain(root: anchor)) == nil)
    }

    @Test("a leaf trusted directly is judged as the server's certificate")
    func directlyTrustedLeafIsJudged() throws {
        let chain = try #require(
            ChainFacts(certificates: [Example.leaf { $0.serialNumber = [0x00] }], host: "api.example.com", anchorIsPublic: true))
        #expect(strict.refusal(of: chain)?.rule == .serialNumber)
        #expect(ChainFacts(certificates: [], host: "api.example.com", anchorIsPublic: true) == nil)
    }

    @Test(
        "keys: RSA of at least 2048 bits in whole octets, P-256, P-384, P-521, Ed25519, Ed448",
        arguments: [
            (PublicKeyFacts.rsa(bits: 1024), "RSA key of 1024 bits (at least 2048)"),
            (.rsa(bits: 2049), "RSA modulus of 2049 bits (not a multiple of 8)"), (.ec(curve: nil), "EC key on an unnamed curve"),
            (.ec(curve: "secp256k1"), "EC key on secp256k1 (P-256, P-384 or P-521 only)"), (.dsa, "DSA key"),
            (.other(algorithm: "SM2"), "key algorithm SM2"), (.unreadable, "unreadable public key"),
        ])
    func forbiddenKeys(key: PublicKeyFacts, reason: String) throws {
        let failure = try #require(strict.refusal(of: Example.chain(leaf: Example.leaf { $0.publicKey = key })))
        #expect(failure == ChainValidationFailure(kind: .forbiddenKey, code: 50, reason: reason, depth: 0, rule: .keyStrength))
    }

    @Test("every allowed key passes", arguments: [PublicKeyFacts.rsa(bits: 4096), .ec(curve: "secp521r1"), .ed25519, .ed448])
    func allowedKeys(key: PublicKeyFacts) {
        #expect(strict.refusal(of: Example.chain(leaf: Example.leaf { $0.publicKey = key })) == nil)
    }

    @Test("the anchor's key is judged too: it signs the path")
    func anchorKeyIsJudged() {
        #expect(strict.refusal(of: Example.chain(root: Example.root { $0.publicKey = .rsa(bits: 1024) }))?.depth == 2)
    }

    @Test("a CA certificate is not a server's certificate")
    func caAsLeaf() {
        #expect(strict.refusal(of: Example.chain(leaf: Example.leaf { $0.isCA = true }))?.kind == .caUsedAsLeaf)
    }

    @Test(
        "the leaf's extendedKeyUsage is present, not critical, has serverAuth and not anyExtendedKeyUsage",
        arguments: [
            ("absent", "the server's certificate has no extendedKeyUsage"),
            ("critical", "the server's certificate's extendedKeyUsage is critical"),
            ("any", "the server's certificate allows anyExtendedKeyUsage"),
            ("client", "the server's certificate's extendedKeyUsage lacks serverAuth"),
        ])
    func extendedKeyUsage(change: String, reason: String) throws {
        let leaf = Example.leaf {
            switch change {
            case "absent": $0.extendedKeyUsage = nil
            case "critical": $0.extensions[1].isCritical = true
            case "any": $0.extendedKeyUsage = [ExtensionFacts.OID.serverAuth, ExtensionFacts.OID.anyExtendedKeyUsage]
            default: $0.extendedKeyUsage = ["1.3.6.1.5.5.7.3.2"]
            }
        }
        let failure = try #require(strict.refusal(of: Example.chain(leaf: leaf)))
        #expect(failure == ChainValidationFailure(kind: .extendedKeyUsage, code: 50, reason: reason, depth: 0, rule: .extendedKeyUsage))
    }

    @Test("an extension appears once and decodes as its definition says, named as OpenSSL names it")
    func extensionEncoding() {
        let twice = Example.intermediate { $0.extensions.append(ExtensionFacts(oid: "2.5.29.19", isCritical: true)) }
        #expect(strict.refusal(of: Example.chain(intermediate: twice))?.reason == "the extension X509v3 Basic Constraints appears twice")
        let malformed = Example.intermediate { $0.extensions.append(ExtensionFacts(oid: "1.2.3.4", isWellFormed: false)) }
        #expect(strict.refusal(of: Example.chain(intermediate: malformed))?.reason == "the extension 1.2.3.4 is malformed or empty")
    }

    @Test("an authorityKeyIdentifier carries its keyIdentifier")
    func keyIdentifiers() {
        let failure = strict.refusal(
            of: Example.chain(intermediate: Example.intermediate { $0.authorityKeyIdentifierHasKeyIdentifier = false }))
        #expect(failure?.rule == .keyIdentifiers)
        #expect(failure?.depth == 1)
    }

    @Test(
        "name and policy constraints: only in a CA, critical, with at least one well-formed subtree",
        arguments: [
            ("leaf", "name or policy constraints in a certificate that is not a CA"), ("not critical", "nameConstraints is not critical"),
            ("empty", "nameConstraints has neither permitted nor excluded subtrees"), ("malformed", "nameConstraints cannot be decoded"),
            ("leading period", "nameConstraints has a malformed subtree"), ("maximum", "nameConstraints has a malformed subtree"),
        ])
    func constraintExtensions(change: String, reason: String) throws {
        var intermediate = Example.intermediate
        intermediate.extensions.append(ExtensionFacts(oid: ExtensionFacts.OID.nameConstraints, isCritical: change != "not critical"))
        intermediate.nameConstraints = .decoded(NameConstraintSubtrees(permitted: [.dns("example.com")]))
        switch change {
        case "leaf": intermediate.isCA = false
        case "empty": intermediate.nameConstraints = .decoded(NameConstraintSubtrees())
        case "malformed": intermediate.nameConstraints = .malformed
        case "leading period": intermediate.nameConstraints = .decoded(NameConstraintSubtrees(permitted: [.dns(".example.com")]))
        case "maximum": intermediate.nameConstraints = .decoded(NameConstraintSubtrees(permitted: [.other(wellFormed: false)]))
        default: break
        }
        let failure = try #require(strict.refusal(of: Example.chain(intermediate: intermediate)))
        #expect(
            failure == ChainValidationFailure(kind: .invalidConstraints, code: 50, reason: reason, depth: 1, rule: .constraintExtensions))
    }

    @Test(
        "every DNS name of the leaf is a host name or a whole-label wildcard",
        arguments: [Optional("bad_name.example.com"), "*x.example.com", nil])
    func dnsNameSyntax(name: String?) {
        let failure = strict.refusal(of: Example.chain(leaf: Example.leaf { $0.subjectAltDNSNames.append(name) }))
        #expect(failure?.kind == .malformedName)
    }

    @Test("a commonName outside the subjectAltName is refused under a public root and accepted under a private one")
    func commonNameClassByAnchor() {
        let leaf = Example.leaf { $0.subjectCommonNames = ["payments-service"] }
        #expect(strict.refusal(of: Example.chain(leaf: leaf))?.kind == .commonNameNotInSubjectAltName)
        #expect(strict.refusal(of: Example.chain(anchorIsPublic: false, leaf: leaf)) == nil)
        let everywhere = ProfileRules(profile: .strictForAllRoots)
        #expect(everywhere.refusal(of: Example.chain(anchorIsPublic: false, leaf: leaf))?.rule == .subjectNames)
    }

    @Test("an IP commonName is compared as the canonical text of a subjectAltName address")
    func ipCommonNameIsComparedAsText() {
        let loopback = [UInt8](repeating: 0, count: 15) + [1]
        let canonical = Example.leaf {
            $0.subjectCommonNames = ["::1"]
            $0.subjectAltIPAddresses = [loopback]
        }
        #expect(strict.refusal(of: Example.chain(host: "::1", leaf: canonical)) == nil)
        let spelledOut = Example.leaf {
            $0.subjectCommonNames = ["0:0:0:0:0:0:0:1"]
            $0.subjectAltIPAddresses = [loopback]
        }
        #expect(strict.refusal(of: Example.chain(host: "::1", leaf: spelledOut))?.kind == .commonNameNotInSubjectAltName)
    }

    @Test("a critical subjectAltName needs an empty subject")
    func criticalSubjectAltName() {
        let leaf = Example.leaf { $0.extensions[0].isCritical = true }
        #expect(strict.refusal(of: Example.chain(leaf: leaf))?.reason == "the subjectAltName is critical though the subject is not empty")
        let emptySubject = Example.leaf {
            $0.extensions[0].isCritical = true
            $0.subjectIsEmpty = true
            $0.subjectCommonNames = []
        }
        #expect(strict.refusal(of: Example.chain(leaf: emptySubject)) == nil)
    }

    @Test("a CA's name constraints bind the host asked for, the anchor's included")
    func nameConstraintsBindTheHost() {
        let root = Example.root { $0.nameConstraints = .decoded(NameConstraintSubtrees(excluded: [.dns("api.example.com")])) }
        let failure = strict.refusal(of: Example.chain(root: root))
        #expect(failure?.kind == .nameConstraintViolation)
        #expect(failure?.depth == 0)
        #expect(strict.refusal(of: Example.chain(host: "www.example.com", root: root)) == nil)
    }

    @Test("no wildcard covers a whole public suffix")
    func publicSuffixWildcard() {
        let leaf = Example.leaf {
            $0.subjectAltDNSNames = ["*.co.uk"]
            $0.subjectCommonNames = []
        }
        #expect(strict.refusal(of: Example.chain(host: "example.co.uk", leaf: leaf))?.kind == .publicSuffixWildcard)
    }

    @Test("a chain deeper than the maximum is refused, first of all")
    func maximumChainDepth() {
        let shallow = ProfileRules(profile: .strict, maximumChainDepth: 1)
        let failure = shallow.refusal(of: Example.chain(leaf: Example.leaf { $0.isCA = true }))
        #expect(
            failure
                == ChainValidationFailure(
                    kind: .chainTooDeep, code: 50, reason: "the chain is 2 deep, more than the maximum 1", depth: 2,
                    rule: .maximumChainDepth))
    }
}
