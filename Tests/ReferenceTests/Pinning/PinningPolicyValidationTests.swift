import Foundation
import Reference
import Testing

extension PinningTests {

    @Suite("Pinning policy and configuration validation")
    struct PolicyValidation {
        typealias Policy = ServerTrustEvaluator.PinningPolicy
        let pinA = Catalogue.leaf("valid-ec256")
        let pinB = Catalogue.backup

        @Test("a domain with a backup pin and enforcement is accepted, lowercased without its trailing dot")
        func validPolicy() throws {
            let policy = try Policy(domainName: "API.Example.Test.", pinnedHashes: [pinA, pinB])
            #expect(policy.domainName == "api.example.test")
            #expect(policy.enforceBackupPin)
            #expect(policy.includeSubdomains == false)
            #expect(policy.expirationDate == .distantFuture)
        }

        @Test("a single pin is accepted when the backup pin is not enforced")
        func singlePinWithoutEnforcement() throws {
            #expect(try Policy(domainName: "example.test", pinnedHashes: [pinA], enforceBackupPin: false).pinnedHashes == [pinA])
        }

        @Test("localhost and IP addresses are accepted as exact domains", arguments: ["localhost", "127.0.0.1", "::1", "[::1]"])
        func specialNames(name: String) throws {
            _ = try Policy(domainName: name, pinnedHashes: [pinA, pinB])
        }

        @Test(
            "malformed domain names are refused, naming the value and the problem",
            arguments: [
                ("", ServerTrustEvaluator.DomainNameProblem.empty),
                (" example.test", .whitespace), ("exa mple.test", .whitespace), ("example.test\n", .whitespace),
                ("https://example.test", .scheme), ("example.test:443", .port), ("example.test/path", .path),
                ("user@example.test", .path), ("*.example.test", .wildcard), ("example..test", .emptyLabel),
                (".example.test", .emptyLabel), ("example.test..", .emptyLabel), ("exämple.test", .invalidCharacter),
                ("-example.test", .invalidCharacter), ("com", .topLevelDomain), ("test.", .topLevelDomain),
                (String(repeating: "a", count: 64) + ".test", .tooLong),
            ])
        func malformedDomains(name: String, problem: ServerTrustEvaluator.DomainNameProblem) {
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.invalidDomainName(name, reason: problem)) {
                try Policy(domainName: name, pinnedHashes: [pinA, pinB])
            }
        }

        @Test("an IP address with includeSubdomains is refused")
        func ipWithSubdomains() {
            #expect(
                throws: ServerTrustEvaluator.PinningPolicyValidationError.invalidDomainName("127.0.0.1", reason: .ipAddressWithSubdomains)
            ) {
                try Policy(domainName: "127.0.0.1", includeSubdomains: true, pinnedHashes: [pinA, pinB])
            }
        }

        @Test("an empty pin set is refused")
        func emptyPins() {
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.emptyPins(domainName: "example.test")) {
                try Policy(domainName: "example.test", pinnedHashes: [])
            }
        }

        @Test("every invalid pin is listed: unpadded, URL-safe, spaced, wrongly prefixed, wrong length, not base64")
        func invalidPins() {
            let urlSafe: String = pinA.replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            let candidates: [String] = [
                String(pinA.dropLast()),  // unpadded
                urlSafe,
                " " + pinA,
                "sha1/" + pinA,
                Data(repeating: 1, count: 20).base64EncodedString(),  // SHA-1 sized
                Data(repeating: 1, count: 48).base64EncodedString(),  // SHA-384 sized
                "💩",
                "🔥",
            ]
            let bad = Set(candidates.filter { $0 != pinA })
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.invalidPins(bad)) {
                try Policy(domainName: "example.test", pinnedHashes: bad.union([pinA]), enforceBackupPin: false)
            }
        }

        @Test("a pin copied with the sha256/ prefix verify-chain and HPKP write is accepted, and is the same pin as without it")
        func prefixedPinAccepted() throws {
            let policy = try Policy(domainName: "example.test", pinnedHashes: ["sha256/" + pinA], enforceBackupPin: false)
            #expect(policy.pinnedHashes == ["sha256/" + pinA])
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.missingBackupPin(domainName: "example.test")) {
                try Policy(domainName: "example.test", pinnedHashes: [pinA, "sha256/" + pinA])
            }
        }

        @Test("an enforced backup pin needs two distinct pins")
        func missingBackupPin() {
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.missingBackupPin(domainName: "example.test")) {
                try Policy(domainName: "Example.Test", pinnedHashes: [pinA])
            }
        }

        @Test("the checks run in order: domain, empty pins, invalid pins, backup pin")
        func validationOrder() {
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.invalidDomainName("", reason: .empty)) {
                try Policy(domainName: "", pinnedHashes: [])
            }
            #expect(throws: ServerTrustEvaluator.PinningPolicyValidationError.invalidPins(["x"])) {
                try Policy(domainName: "example.test", pinnedHashes: ["x"])
            }
        }

        @Test("a configuration needs policies")
        func emptyConfiguration() {
            #expect(throws: ServerTrustEvaluator.ConfigurationValidationError.emptyPolicies) {
                try ServerTrustEvaluator.Configuration(pinningPolicies: [])
            }
        }

        @Test("two policies for one domain are a configuration error, whatever their case, dot or flags")
        func duplicateDomains() throws {
            let first = try policy("example.test", pins: [pinA])
            let second = try policy("EXAMPLE.test.", subdomains: true, pins: [pinB])
            #expect(throws: ServerTrustEvaluator.ConfigurationValidationError.duplicateDomain("example.test")) {
                try ServerTrustEvaluator.Configuration(pinningPolicies: [first, second])
            }
        }

        @Test("configuration defaults follow Alicerce: leaf to root, unpinned refused, expired allowed")
        func configurationDefaults() throws {
            let configuration = try ServerTrustEvaluator.Configuration(pinningPolicies: [try policy(pins: [pinA])])
            #expect(configuration.certificateCheckingOrder == .leafToRoot)
            #expect(configuration.allowNotPinnedDomains == false)
            #expect(configuration.allowExpiredDomainPolicies == true)
        }

        @Test("checking orders give leaf-to-root and root-to-leaf indices")
        func checkingOrder() {
            #expect(ServerTrustEvaluator.CertificateCheckingOrder.leafToRoot.indices(forChainOfLength: 3) == [0, 1, 2])
            #expect(ServerTrustEvaluator.CertificateCheckingOrder.rootToLeaf.indices(forChainOfLength: 3) == [2, 1, 0])
        }
    }
}
