import Foundation
import MockServer
import Reference
import NetworkCore
import Testing

extension PinningTests {

    @Suite("ServerTrustEvaluator over real TLS")
    struct Evaluator {

        @Test("a pin on the leaf is accepted")
        func pinOnLeaf() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: [Catalogue.leaf("valid-ec256")])]))
            #expect(harness.fetch().success?.value == Data("ok".utf8))
        }

        @Test("a pin written with sha256/ before it matches as the bare pin does")
        func prefixedPinMatches() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: ["sha256/" + Catalogue.intermediate("valid-ec256")])]))
            #expect(harness.fetch().success != nil)
        }

        @Test("a refusal lists the configured pins bare, however they were written")
        func refusalListsPinsBare() throws {
            let written = ["sha256/" + Catalogue.unrelated, Catalogue.backup]
            let harness = try PinHarness(handler: evaluator([policy(pins: Set(written))]))
            let failure = try #require(harness.fetch().serverTrustFailure)
            #expect(failure.configuredPins == [Catalogue.unrelated, Catalogue.backup].sorted())
        }

        @Test("a pin on the intermediate is accepted")
        func pinOnIntermediate() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: [Catalogue.intermediate("valid-ec256")])]))
            #expect(harness.fetch().success != nil)
        }

        @Test("a pin on the root, which the server does not send, is accepted")
        func pinOnRoot() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: [Catalogue.root("valid-ec256")])]))
            #expect(harness.fetch().success != nil)
        }

        @Test("a refused fetch prints, and localizes, host, policy, pins configured and pins seen, once each")
        func refusalReadsAsOneLine() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: [Catalogue.unrelated])]))
            guard case .failure(let error) = harness.fetch() else {
                Issue.record("the fetch succeeded")
                return
            }
            let port = harness.server.port
            let expected =
                "serverCertificateUntrusted (-1202) for https://localhost:\(port)/: server trust refused for host localhost: noPinMatched; "
                + "policy: localhost (1 pin); configured pins: [\(Catalogue.unrelated)]; chain pins: [#0 \(Catalogue.leaf("valid-ec256")) "
                + "(CN=localhost), #1 \(Catalogue.intermediate("valid-ec256")) (CN=Fixture valid-ec256 Intermediate 1), "
                + "#2 \(Catalogue.root("valid-ec256")) (CN=Fixture Root A)]; no certificate of the verified chain has a configured pin; "
                + "port \(port)"
            #expect(String(describing: error) == expected)
            #expect(error.localizedDescription == expected)
        }

        @Test("a backup pin alone, in no chain, is refused")
        func backupPinOnly() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: [Catalogue.backup])]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPinMatched)
        }

        @Test("a chain pin plus a backup pin, with the backup enforced, is accepted")
        func chainPinPlusBackup() throws {
            let enforced = try ServerTrustEvaluator.PinningPolicy(
                domainName: "localhost", pinnedHashes: [Catalogue.intermediate("valid-ec256"), Catalogue.backup])
            let harness = try PinHarness(handler: evaluator([enforced]))
            #expect(harness.fetch().success != nil)
        }

        @Test("a mismatch is refused with noPinMatched, the diagnostics, and no request byte sent")
        func mismatchRefused() throws {
            let harness = try PinHarness(handler: evaluator([policy(pins: [Catalogue.unrelated, Catalogue.backup])]))
            let result = harness.fetch()
            #expect(result.urlErrorCode == .serverCertificateUntrusted)
            let failure = try #require(result.serverTrustFailure)
            #expect(failure.reason == .noPinMatched)
            #expect(failure.host == "localhost")
            #expect(failure.policy?.hasPrefix("localhost") == true)
            #expect(failure.configuredPins == [Catalogue.unrelated, Catalogue.backup].sorted())
            #expect(
                failure.seenCertificates.map(\.spkiSHA256) == [
                    Catalogue.leaf("valid-ec256"), Catalogue.intermediate("valid-ec256"), Catalogue.root("valid-ec256"),
                ])
            #expect(
                failure.seenCertificates.map(\.subject) == ["CN=localhost", "CN=Fixture valid-ec256 Intermediate 1", "CN=Fixture Root A"])
            let text = failure.description
            #expect(
                text.contains(Catalogue.leaf("valid-ec256")) && text.contains("CN=Fixture Root A") && text.contains(Catalogue.unrelated))
            #expect(harness.applicationBytes == 0)
            #expect(harness.server.journal.allSatisfy { $0.requestCount == 0 })
        }

        @Test("a host no policy covers is refused when unpinned hosts are not allowed")
        func notPinnedRefused() throws {
            let harness = try PinHarness(handler: evaluator([policy("other.test", pins: [Catalogue.leaf("valid-ec256")])]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPolicyForHost)
            #expect(harness.applicationBytes == 0)
        }

        @Test("a host no policy covers gets standard validation when unpinned hosts are allowed")
        func notPinnedAllowed() throws {
            let harness = try PinHarness(handler: evaluator([policy("other.test", pins: [Catalogue.unrelated])], allowNotPinned: true))
            #expect(harness.fetch().success != nil)
        }

        @Test("an allowed unpinned host still fails standard validation")
        func notPinnedAllowedStillValidated() throws {
            let harness = try PinHarness(
                scenario: "wrong-host", handler: evaluator([policy("other.test", pins: [Catalogue.unrelated])], allowNotPinned: true))
            let result = harness.fetch()
            guard case .failure(.url(let error)) = result else { Issue.record("expected a failure"); return }
            #expect(error.transportFailure?.chainValidationFailure?.kind == .hostnameMismatch)
        }

        @Test("an expired policy is refused when expired policies are not allowed, at the stack's verification time")
        func expiredRefused() throws {
            let expiry = Date(timeIntervalSince1970: 2_000_000_000)  // 2033
            let harness = try PinHarness(
                verificationTime: expiry.addingTimeInterval(86_400),
                handler: evaluator([policy(expires: expiry, pins: [Catalogue.leaf("valid-ec256")])], allowExpired: false))
            #expect(harness.fetch().serverTrustFailure?.reason == .policyExpired)
            #expect(harness.applicationBytes == 0)
        }

        @Test("an expired policy falls back to standard validation when expired policies are allowed")
        func expiredAllowed() throws {
            let expiry = Date(timeIntervalSince1970: 2_000_000_000)
            let harness = try PinHarness(
                verificationTime: expiry.addingTimeInterval(86_400),
                handler: evaluator([policy(expires: expiry, pins: [Catalogue.unrelated])], allowExpired: true))
            #expect(harness.fetch().success != nil)
        }

        @Test("a policy not yet expired at the verification time is enforced")
        func notYetExpiredEnforced() throws {
            let expiry = Date(timeIntervalSince1970: 2_000_000_000)
            let harness = try PinHarness(
                verificationTime: expiry.addingTimeInterval(-86_400),
                handler: evaluator([policy(expires: expiry, pins: [Catalogue.unrelated])], allowExpired: true))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPinMatched)
        }

        @Test("a subdomain policy pins a subdomain reached by name")
        func subdomainPinned() throws {
            let harness = try PinHarness(
                scenario: "wildcard", host: "api.example.test",
                handler: evaluator([policy("example.test", subdomains: true, pins: [Catalogue.intermediate("wildcard")])]))
            #expect(harness.fetch().success != nil)
            let refusing = try PinHarness(
                scenario: "wildcard", host: "api.example.test",
                handler: evaluator([policy("example.test", subdomains: true, pins: [Catalogue.unrelated])]))
            #expect(refusing.fetch().serverTrustFailure?.reason == .noPinMatched)
        }

        @Test(
            "look-alike and parent hosts are not covered by a subdomain policy", arguments: ["xexample.test", "example.test.evil", "test"])
        func lookAlikesNotCovered(host: String) throws {
            let harness = try PinHarness(
                scenario: "multi-host", host: host,
                handler: evaluator([policy("a.example.test", subdomains: true, pins: [Catalogue.leaf("multi-host")])]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPolicyForHost)
            #expect(harness.applicationBytes == 0)
        }

        @Test("the parent of a subdomain policy's domain is not covered")
        func parentNotCovered() throws {
            let harness = try PinHarness(
                scenario: "multi-host", host: "example.test",
                handler: evaluator([policy("a.example.test", subdomains: true, pins: [Catalogue.leaf("multi-host")])]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPolicyForHost)
        }

        @Test("overlapping policies: the exact policy decides over the covering one")
        func overlappingExactWins() throws {
            let parent = try policy("example.test", subdomains: true, pins: [Catalogue.leaf("multi-host")])
            let exact = try policy("a.example.test", pins: [Catalogue.unrelated])
            let harness = try PinHarness(scenario: "multi-host", host: "a.example.test", handler: evaluator([parent, exact]))
            let failure = try #require(harness.fetch().serverTrustFailure)
            #expect(failure.reason == .noPinMatched)
            #expect(failure.policy?.hasPrefix("a.example.test") == true)
            let sibling = try PinHarness(scenario: "multi-host", host: "b.example.test", handler: evaluator([parent, exact]))
            #expect(sibling.fetch().success != nil)
        }

        @Test("host names match case-insensitively and with a trailing dot")
        func caseAndTrailingDot() throws {
            let harness = try PinHarness(
                scenario: "multi-host", host: "A.Example.Test.",
                handler: evaluator([policy("a.example.test", pins: [Catalogue.leaf("multi-host")])]))
            let result = harness.fetch()
            #expect(result.success != nil, "\(String(describing: result.failure))")
        }

        @Test(
            "every key type pins on leaf, intermediate and root",
            arguments: [
                "valid-ec256", "valid-ec384", "valid-ec521", "valid-rsa2048", "valid-rsa3072", "valid-rsa4096", "valid-ed25519",
            ])
        func everyKeyType(scenario: String) throws {
            let roots = scenario == "valid-ec256" ? ["roots/root-a.pem"] : ["\(scenario)/root.pem"]
            for role in ["leaf", "intermediate-1", "root"] {
                let harness = try PinHarness(
                    scenario: scenario, roots: roots, handler: evaluator([policy(pins: [Catalogue.pin(scenario, role)])]))
                #expect(harness.fetch().success != nil, "\(scenario) \(role)")
            }
            let refusing = try PinHarness(scenario: scenario, roots: roots, handler: evaluator([policy(pins: [Catalogue.unrelated])]))
            #expect(refusing.fetch().serverTrustFailure?.reason == .noPinMatched)
        }

        @Test(
            "a matching pin never rescues a chain that fails standard validation",
            arguments: [
                (
                    "expired-leaf",
                    ServerTrustFailure.Reason.chainNotTrusted(ChainValidationFailure(kind: .expired, code: 10, reason: "", depth: 0))
                ),
                ("untrusted-root", .chainNotTrusted(ChainValidationFailure(kind: .unableToGetIssuer, code: 20, reason: "", depth: 0))),
                ("self-signed-leaf", .chainNotTrusted(ChainValidationFailure(kind: .selfSigned, code: 18, reason: "", depth: 0))),
                ("wrong-host", .hostnameMismatch),
            ])
        func pinNeverReplacesValidation(scenario: String, expected: ServerTrustFailure.Reason) throws {
            let harness = try PinHarness(scenario: scenario, handler: evaluator([policy(pins: [Catalogue.leaf(scenario)])]))
            let failure = try #require(harness.fetch().serverTrustFailure)
            #expect(failure.reason.isSameKind(as: expected))
            #expect(failure.reason.chainValidationFailure?.kind == expected.chainValidationFailure?.kind)
            #expect(harness.applicationBytes == 0)
        }

        @Test("a pinned certificate served beside a chain that validates elsewhere is refused")
        func pinnedIntermediateAppended() throws {
            let harness = try PinHarness(
                scenario: "attacker-with-pinned-intermediate", roots: ["roots/root-a.pem", "roots/root-b.pem"],
                handler: evaluator([policy(pins: [Catalogue.intermediate("valid-ec256"), Catalogue.root("valid-ec256")])]))
            let failure = try #require(harness.fetch().serverTrustFailure)
            #expect(failure.reason == .noPinMatched)
            #expect(!failure.seenCertificates.map(\.spkiSHA256).contains(Catalogue.intermediate("valid-ec256")))
            #expect(failure.detail?.contains(Catalogue.intermediate("valid-ec256")) == true)  // named as ignored
            #expect(harness.applicationBytes == 0)
        }

        @Test("an attacker CA trusted by the stack is refused by the pins")
        func attackerCARefused() throws {
            let harness = try PinHarness(
                scenario: "attacker-ca", roots: ["roots/root-a.pem", "roots/root-b.pem"],
                handler: evaluator([policy(pins: [Catalogue.intermediate("valid-ec256")])]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPinMatched)
        }

        @Test("the failure reporter receives host, port, policy, chains, pins and date")
        func failureReport() throws {
            let reports = Locked<[ServerTrustEvaluator.FailureReport]>([])
            let time = Date(timeIntervalSince1970: 1_900_000_000)
            let harness = try PinHarness(
                verificationTime: time,
                handler: evaluator([policy(pins: [Catalogue.unrelated])], reporter: { report in reports.withLock { $0.append(report) } }))
            _ = harness.fetch()
            let report = try #require(reports.withLock { $0.first })
            #expect(report.host == "localhost")
            #expect(report.port == harness.server.port)
            #expect(report.policy?.domainName == "localhost")
            #expect(report.verifiedChain.count == 3)
            #expect(report.servedChain.count == 2)
            #expect(report.configuredPins == [Catalogue.unrelated])
            #expect(report.date == time)
            #expect(report.error == .pinVerificationFailed(.pinnedHashNotFound))
            #expect(report.failure.reason == .noPinMatched)
        }
    }
}
