import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    /// Standard validation across the certificate catalogue, the challenge handler contract, and the
    /// injectable verification time. Scenarios come from `Fixtures/certs/manifest.json`.
    static func trust(_ fixtures: FixtureCatalogue?) -> [ConformanceCase] {
        var cases: [ConformanceCase] = []
        // A path deeper than the reference stack's bound is refused there, but TRUST-16 asks only for paths up to 8
        // certificates above the leaf: a stack may look further (swift-certificates does), so no case judges it.
        let scenarios =
            fixtures?.scenarios.filter { $0.kind == "chain" && $0.name != "cross-signed-past-depth-bound" } ?? []
        for scenario in scenarios {
            let host = scenario.host ?? "localhost"
            let needsResolve = host != "localhost" && host.first?.isNumber != true
            var requires: Set<SubjectFeature> = needsResolve ? [.resolveOverrides] : []
            // A cross-signed chain is valid by a path the TLS library's own builder may not try, and an intermediate
            // ends a path only where the builder takes any trusted certificate as an anchor.
            let pathBuilding = scenario.name.hasPrefix("cross-signed-") || scenario.name == "intermediate-as-anchor"
            if pathBuilding, scenario.expected == "valid" { requires.insert(.pathBuilding) }
            let server = ServerScript(tlsScenario: scenario.name, host: host, responses: [ok("trusted")])
            let valid = scenario.expected == "valid"
            let code: URLError.Code =
                switch scenario.expected {
                case "expired": .serverCertificateHasBadDate
                case "not-yet-valid": .serverCertificateNotYetValid
                default: .serverCertificateUntrusted
                }
            let kind = verifierKind(scenario)
            // Only the code is compared here: the chain failure's kind is checked by trust.challenge.* below.
            let refusal = Expectation(
                Outcome(kind: .url, urlErrorCode: code.rawValue),
                journal: JournalExpectation(requests: 0, noApplicationBytes: true))
            cases.append(
                ConformanceCase(
                    id: "trust.standard.\(scenario.name)",
                    title: valid
                        ? "standard validation accepts \(scenario.name)"
                        : "standard validation refuses \(scenario.name) (\(scenario.expected)) with \(URLErrorName.describe(code.rawValue))",
                    rules: (valid ? ["TRUST-1"] : ["TRUST-1", "ERR-13", "TRUST-3"])
                        + (pathBuilding ? ["TRUST-16"] : []),
                    explanation:
                        "\(scenario.description ?? scenario.name). Trusting \(scenario.trust?.joined(separator: ", ") ?? "nothing"), no handler: "
                        + (valid
                            ? "the fetch succeeds."
                            : "the fetch fails before any request byte is sent, with the chain failure kind \(kind)."),
                    requires: requires, server: server,
                    expected: valid ? Expectation(success("trusted"), journal: .requests(1)) : refusal))
            if code != .serverCertificateUntrusted {
                // The exact date code is ERR-13's, which some TLS libraries cannot give (a subject declares
                // certificate-date-codes unsupported); the refusal itself, and that it leaks nothing, no stack may skip.
                cases.append(
                    ConformanceCase(
                        id: "trust.standard.\(scenario.name).refused",
                        title:
                            "standard validation refuses \(scenario.name) (\(scenario.expected)) before any request byte, with a certificate code",
                        rules: ["TRUST-1", "TRUST-3"],
                        explanation:
                            "\(scenario.description ?? scenario.name). As trust.standard.\(scenario.name), accepting any certificate refusal code: the exact code is that case's.",
                        requires: requires, server: server,
                        expected: Expectation(anyCertificateRefusal, journal: JournalExpectation(requests: 0, noApplicationBytes: true))))
            }
            cases.append(
                ConformanceCase(
                    id: "trust.challenge.\(scenario.name)",
                    title: "the handler is told standard validation's verdict on \(scenario.name): \(scenario.expected)",
                    rules: valid ? ["TRUST-4"] : ["TRUST-4", "TRUST-3"],
                    explanation:
                        "A handler that trusts exactly what standard validation accepts sees \(scenario.expected) for \(scenario.name) and the verified chain's pins (none when the chain did not verify, unless only the host name failed); a refusal leaks no request byte.",
                    requires: requires.union([.serverTrustChallenge]), server: server,
                    stack: StackSetup(handler: .scripted(.refuseUnlessValid)),
                    expected: valid
                        ? Expectation(
                            success("trusted"),
                            checks: [
                                .challengeStandardValidation("valid"),
                                .challenge(host: host, servedPins: nil, verifiedPins: scenario.verifiedChainPins),
                            ])
                        : Expectation(
                            Outcome(
                                kind: .url, urlErrorCode: refusalCode("chainNotTrusted(\(kind))"),
                                trustFailure: "handler:chainNotTrusted(\(kind))"),
                            journal: JournalExpectation(requests: 0, noApplicationBytes: true),
                            // A chain that did not verify is no verified chain; only a host-name failure, checked after
                            // the whole chain verified, keeps it.
                            checks: [.challengeStandardValidation(kind)]
                                + (kind == "hostname-mismatch" ? [] : [.challenge(host: host, servedPins: nil, verifiedPins: [])])
                        )))
        }
        cases += handlerContract(fixtures) + verificationTime
        // The configured maximum depth: valid-two-intermediates has three certificates above its leaf.
        for (maximum, accepted) in [(3, true), (2, false)] {
            cases.append(
                ConformanceCase(
                    id: "trust.maximum-chain-depth.\(accepted ? "at" : "past")-maximum",
                    title: accepted
                        ? "a verified chain exactly as deep as the configured maximum is accepted"
                        : "a verified chain deeper than the configured maximum is refused as chain-too-deep",
                    rules: accepted ? ["TRUST-1"] : ["TRUST-1", "TRUST-3"],
                    explanation:
                        "valid-two-intermediates (leaf, two intermediates, root A: 3 certificates above the leaf), with the stack's maximum chain depth set to \(maximum): "
                        + (accepted
                            ? "the fetch succeeds."
                            : "the fetch fails before any request byte with the chain failure kind chain-too-deep."),
                    server: ServerScript(tlsScenario: "valid-two-intermediates", responses: [ok("trusted")]),
                    stack: StackSetup(maximumChainDepth: maximum),
                    expected: accepted
                        ? Expectation(success("trusted"), journal: .requests(1))
                        : Expectation(
                            Outcome(
                                kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue,
                                trustFailure: "chain:chain-too-deep"),
                            journal: JournalExpectation(requests: 0, noApplicationBytes: true))))
        }
        return cases
    }

    /// A refusal of the server's certificate with any of the certificate codes (untrusted, bad date, not yet
    /// valid): for the MUST half of a case whose exact code some TLS libraries cannot give.
    static var anyCertificateRefusal: Outcome {
        var outcome = url(.serverCertificateUntrusted)
        outcome.alsoAcceptedURLErrorCodes = [
            URLError.Code.serverCertificateHasBadDate.rawValue, URLError.Code.serverCertificateNotYetValid.rawValue,
        ]
        return outcome
    }

    /// The `ChainValidationFailure` kind a verifier reports for a scenario: the manifest's outcome, except
    /// where the server does not send the root, so the verifier cannot tell an untrusted root from a
    /// missing issuer (`opensslVerifyError` 20, unable to get local issuer certificate).
    static func verifierKind(_ scenario: FixtureCatalogue.Scenario) -> String {
        scenario.expected == "untrusted-root" && scenario.opensslVerifyError == 20 ? "unable-to-get-issuer" : scenario.expected
    }

    private static func handlerContract(_ fixtures: FixtureCatalogue?) -> [ConformanceCase] {
        let root = ["roots/root-a.pem"]
        // Pins come from the manifest, so regenerated fixtures never stale the catalogue.
        let ec256 = fixtures?.scenario("valid-ec256")
        return [
            ConformanceCase(
                id: "trust.handler.sees-served-and-verified-chains",
                title: "the handler sees the host, the served chain, and the verified chain with the root the server did not send",
                rules: ["TRUST-4"], explanation: "valid-ec256 serves leaf + intermediate; the verified chain adds root A.",
                requires: [.serverTrustChallenge], server: .tls("valid-ec256", ok()),
                stack: StackSetup(handler: .scripted(.performDefaultHandling)),
                expected: Expectation(
                    success(),
                    checks: [
                        .challenges(1),
                        .challenge(
                            host: "localhost",
                            servedPins: [ec256?.pin("leaf") ?? "?", ec256?.pin("intermediate-1") ?? "?"],
                            verifiedPins: ec256?.verifiedChainPins ?? ["?"]),
                    ])),
            ConformanceCase(
                id: "trust.handler.refusal-leaks-nothing",
                title: "a handler's refusal fails with serverCertificateUntrusted and no request byte reaches the server",
                rules: ["TRUST-3", "TRUST-5"],
                explanation:
                    "The handler refuses a valid chain: url(serverCertificateUntrusted) with the handler's reason, and the server's journal shows zero application bytes.",
                requires: [.serverTrustChallenge], server: .tls("valid-ec256", ok()), stack: StackSetup(handler: .scripted(.refuse)),
                expected: Expectation(
                    Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:refused"),
                    journal: JournalExpectation(requests: 0, noApplicationBytes: true))),
            ConformanceCase(
                id: "trust.handler.use-credential-overrides", title: "a handler may trust a chain standard validation refused",
                rules: ["TRUST-5"], explanation: "untrusted-root with a handler answering useCredential: the fetch succeeds.",
                requires: [.serverTrustChallenge], server: .tls("untrusted-root", ok()),
                stack: StackSetup(trustedRoots: root, handler: .scripted(.useCredential)),
                expected: Expectation(success(), checks: [.challengeStandardValidation("unable-to-get-issuer")])),
            ConformanceCase(
                id: "trust.handler.default-handling-valid", title: "performDefaultHandling on a valid chain succeeds",
                rules: ["TRUST-5"], explanation: "Default handling applies standard validation, which passes.",
                requires: [.serverTrustChallenge], server: .tls("valid-ec256", ok()),
                stack: StackSetup(handler: .scripted(.performDefaultHandling)),
                expected: Expectation(success())),
            ConformanceCase(
                id: "trust.handler.default-handling-untrusted", title: "performDefaultHandling on an untrusted chain fails like no handler",
                rules: ["TRUST-5"], explanation: "Default handling applies standard validation, which refuses untrusted-root.",
                requires: [.serverTrustChallenge], server: .tls("untrusted-root", ok()),
                stack: StackSetup(trustedRoots: root, handler: .scripted(.performDefaultHandling)),
                expected: Expectation(url(.serverCertificateUntrusted), journal: JournalExpectation(requests: 0, noApplicationBytes: true))),
            ConformanceCase(
                id: "trust.handler.reused-connection-rechecked", title: "a reused connection is checked again before each request",
                rules: ["TRUST-6"],
                explanation:
                    "Two sequential fetches on one keep-alive connection: two challenges, the second marked as a reused-connection re-check.",
                requires: [.serverTrustChallenge], server: .tls("valid-ec256", ok("1"), ok("2")),
                stack: StackSetup(handler: .scripted(.performDefaultHandling)),
                action: .sequential(2),
                expected: Expectation(
                    success("2"), journal: JournalExpectation(connections: 1, requests: 2),
                    checks: [.challenges(2), .laterChallengesAreReused])),
            ConformanceCase(
                id: "trust.handler.every-new-connection",
                title: "every new connection is checked: a client never skips the handler by resuming a session",
                rules: ["TRUST-6"],
                explanation:
                    "A server that allows session resumption and closes after each response: each of the two fetches gets a full check.",
                requires: [.serverTrustChallenge],
                server: ServerScript(
                    tlsScenario: "valid-ec256",
                    responses: [
                        MockResponse(status: 200, body: Data("1".utf8), closeConnection: true),
                        MockResponse(status: 200, body: Data("2".utf8), closeConnection: true),
                    ], sessionResumption: true),
                stack: StackSetup(handler: .scripted(.performDefaultHandling)), action: .sequential(2),
                expected: Expectation(success("2"), journal: JournalExpectation(connections: 2, requests: 2), checks: [.challenges(2)])),
            ConformanceCase(
                id: "trust.roots.system-store-not-trusted",
                title: "a stack that trusts only the fixture roots refuses a chain to another root",
                rules: ["TRUST-2"],
                explanation:
                    "valid-ec384 chains to its own root, which the stack is not given: unable to get the issuer, url(serverCertificateUntrusted).",
                requires: [.exclusiveTrustRoots], server: .tls("valid-ec384", ok()), stack: StackSetup(trustedRoots: root),
                expected: Expectation(url(.serverCertificateUntrusted), journal: JournalExpectation(requests: 0, noApplicationBytes: true))),
            ConformanceCase(
                id: "trust.roots.every-configured-root",
                title: "a stack given three roots trusts a chain to the one in the middle",
                rules: ["TRUST-2"],
                explanation:
                    "The stack trusts only root B, valid-ec384's own root and root A, in that order; valid-ec384 chains to the second: the fetch succeeds. A stack that keeps one root file where it was given several (libcurl's CAINFO names one file: set once per root, the last one wins) passes trust.roots.system-store-not-trusted, which gives it one root, and refuses this chain.",
                server: .tls("valid-ec384", ok()),
                stack: StackSetup(trustedRoots: ["roots/root-b.pem", "valid-ec384/root.pem", "roots/root-a.pem"]),
                expected: Expectation(success(), journal: .requests(1))),
        ]
    }

    private static var verificationTime: [ConformanceCase] {
        let rules = ["TRUST-7"]
        let year2125 = Date(timeIntervalSince1970: 4_900_000_000)
        return [
            ConformanceCase(
                id: "trust.verification-time.valid-chain-later", title: "a valid chain checked in 2125 is expired",
                rules: rules,
                explanation:
                    "valid-ec256's certificates end in 2120: with the verification time set to 2125, url(serverCertificateHasBadDate).",
                requires: [.verificationTime], server: .tls("valid-ec256", ok()), stack: StackSetup(verificationTime: year2125),
                expected: Expectation(
                    Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateHasBadDate.rawValue, trustFailure: "chain:expired"))),
            ConformanceCase(
                id: "trust.verification-time.valid-chain-later.refused",
                title: "a valid chain checked in 2125 is refused before any request byte",
                rules: rules + ["TRUST-3"],
                explanation:
                    "As trust.verification-time.valid-chain-later, accepting any certificate refusal code: the verification time decides, whatever code the TLS library can give.",
                requires: [.verificationTime], server: .tls("valid-ec256", ok()), stack: StackSetup(verificationTime: year2125),
                expected: Expectation(anyCertificateRefusal, journal: JournalExpectation(requests: 0, noApplicationBytes: true))),
            ConformanceCase(
                id: "trust.verification-time.expired-leaf-earlier", title: "an expired leaf checked during its validity is accepted",
                rules: rules, explanation: "expired-leaf is valid 2020-01-01 to 2021-01-01: checked at 2020-06-01 it is trusted.",
                requires: [.verificationTime], server: .tls("expired-leaf", ok()),
                stack: StackSetup(verificationTime: Date(timeIntervalSince1970: 1_590_969_600)),
                expected: Expectation(success())),
            ConformanceCase(
                id: "trust.verification-time.not-yet-valid-later", title: "a not-yet-valid leaf checked during its validity is accepted",
                rules: rules, explanation: "not-yet-valid-leaf is valid from 2100: checked in 2110 it is trusted.",
                requires: [.verificationTime], server: .tls("not-yet-valid-leaf", ok()),
                stack: StackSetup(verificationTime: Date(timeIntervalSince1970: 4_418_064_000)),
                expected: Expectation(success())),
        ]
    }
}
