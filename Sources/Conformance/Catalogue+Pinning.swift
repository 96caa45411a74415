import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore
import Pinning

extension Catalogue {

    /// Pinning cases for `ServerTrustEvaluator` (here) and `TrustManager` (``pinningTrustManager``): fixture
    /// scenarios served by the MockServer, a ``HandlerSpec`` whose factory builds the handler from the
    /// fixture catalogue's pins, and the expected outcome. A refusal is `url(serverCertificateUntrusted)`
    /// with the handler's reason, and the server's journal shows no request and no application byte
    /// .
    static var pinning: [ConformanceCase] {
        keyTypes + chainPositions + backupPins + policySelection + expiry + subdomains + bypasses + pinningTrustManager
    }

    /// A pin that no fixture certificate has (valid base64 of 32 bytes).
    static let unknownPin = "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA="

    /// The `URLError` code of a handler's refusal with this reason: a chain refused for its dates says so with
    /// the date codes, as standard validation does (ERR-13); any other refusal is untrusted.
    static func refusalCode(_ reason: String) -> Int {
        switch reason {
        case "chainNotTrusted(expired)": URLError.Code.serverCertificateHasBadDate.rawValue
        case "chainNotTrusted(not-yet-valid)": URLError.Code.serverCertificateNotYetValid.rawValue
        default: URLError.Code.serverCertificateUntrusted.rawValue
        }
    }

    /// How a pinning case must end.
    enum PinVerdict {
        /// The fetch succeeds: one request.
        case accepted
        /// The handler refuses with this reason (`noPinMatched`, `chainNotTrusted(expired)`): no request byte.
        case refused(String)
    }

    /// A pinning case: the scenario's server answers `ok`, the stack has the handler.
    static func pinCase(
        _ id: String, _ title: String, rules: [String], explanation: String, scenario: String = "valid-ec256",
        host: String = "localhost", trustedRoots: [String]? = nil, handler: HandlerSpec, verificationTime: Date? = nil,
        _ verdict: PinVerdict, checks: [Check] = []
    ) -> ConformanceCase {
        var requires: Set<SubjectFeature> = [.serverTrustChallenge]
        if host != "localhost" { requires.insert(.resolveOverrides) }
        if verificationTime != nil { requires.insert(.verificationTime) }
        let expected: Expectation =
            switch verdict {
            case .accepted:
                Expectation(success(), journal: .requests(1), checks: checks)
            case .refused(let reason):
                Expectation(
                    Outcome(kind: .url, urlErrorCode: refusalCode(reason), trustFailure: "handler:\(reason)"),
                    journal: JournalExpectation(requests: 0, noApplicationBytes: true), checks: checks)
            }
        return ConformanceCase(
            id: id, title: title, rules: rules, explanation: explanation, requires: requires,
            server: .tls(scenario, host: host, ok()),
            stack: StackSetup(trustedRoots: trustedRoots, handler: handler, verificationTime: verificationTime),
            expected: expected)
    }

    /// A policy (default `localhost`, backup pin not enforced unless asked) for a factory.
    static func policy(
        _ domain: String, subdomains: Bool = false, expires: Date = .distantFuture,
        _ pins: [String], enforceBackupPin: Bool = false
    ) throws -> ServerTrustEvaluator.PinningPolicy {
        try ServerTrustEvaluator.PinningPolicy(
            domainName: domain, includeSubdomains: subdomains, expirationDate: expires,
            pinnedHashes: Set(pins), enforceBackupPin: enforceBackupPin)
    }

    /// A localhost policy with these pins (the backup rule not enforced: a case may pin one key alone).
    static func localhost(_ pins: [String]) throws -> [ServerTrustEvaluator.PinningPolicy] {
        [try policy("localhost", pins)]
    }

    // MARK: Where the pin is

    /// Every key type, pinned on the leaf, the intermediate and the root the server never sends.
    private static var keyTypes: [ConformanceCase] {
        let types = ["ec256", "ec384", "ec521", "rsa2048", "rsa3072", "rsa4096", "ed25519"]
        var cases: [ConformanceCase] = []
        for type in types {
            let scenario = "valid-\(type)"
            for (role, name, what) in [
                ("leaf", "leaf", "the leaf"), ("intermediate-1", "intermediate", "the intermediate"),
                ("root", "root-not-served", "the root, which the server does not send"),
            ] {
                cases.append(
                    pinCase(
                        "pin.key.\(type).\(name)", "a pin on \(what) of an all-\(type) chain matches",
                        rules: ["PIN-1", "PIN-2"],
                        explanation:
                            "\(scenario) with a policy for localhost pinning \(what) and the spare backup key: SPKI hashes work for every key type, and the verified chain includes the anchor.",
                        scenario: scenario,
                        handler: .evaluator("pin \(scenario) \(role) + backup") {
                            try localhost([try $0.pin(scenario, role), try $0.backupPin()])
                        },
                        .accepted))
            }
        }
        return cases
    }

    private static var chainPositions: [ConformanceCase] {
        let rules = ["PIN-2"]
        return [
            pinCase(
                "pin.intermediate.root-not-served", "a pin on root A matches although the server does not send it",
                rules: rules,
                explanation:
                    "valid-ec256 serves leaf + intermediate; the verified chain ends at root A, which carries the only pin (and the backup).",
                handler: .evaluator("pin root A + backup") { try localhost([try $0.pin("valid-ec256", "root"), try $0.backupPin()]) },
                .accepted),
            pinCase(
                "pin.intermediate.upper-of-two", "a pin on the upper of two intermediates matches",
                rules: rules,
                explanation: "valid-two-intermediates: root A → intermediate-1 → intermediate-2 → leaf; intermediate-1 is pinned.",
                scenario: "valid-two-intermediates",
                handler: .evaluator("pin intermediate-1") {
                    try localhost([try $0.pin("valid-two-intermediates", "intermediate-1"), try $0.backupPin()])
                }, .accepted),
            pinCase(
                "pin.intermediate.served-out-of-order", "a pinned intermediate served out of order still matches the verified chain",
                rules: rules,
                explanation:
                    "out-of-order serves intermediate-1 before intermediate-2; the verifier reorders, and intermediate-2 is on the verified path.",
                scenario: "out-of-order",
                handler: .evaluator("pin intermediate-2") {
                    try localhost([try $0.pin("out-of-order", "intermediate-2"), try $0.backupPin()])
                }, .accepted),
            pinCase(
                "pin.root.no-intermediate", "a pin on the root of a leaf signed directly by it matches",
                rules: rules, explanation: "valid-no-intermediate: root A signs the leaf; root A is pinned.",
                scenario: "valid-no-intermediate",
                handler: .evaluator("pin root A") { try localhost([try $0.pin("valid-no-intermediate", "root"), try $0.backupPin()]) },
                .accepted),
            pinCase(
                "pin.order.root-to-leaf", "checking root to leaf finds a leaf pin too",
                rules: ["PIN-5"],
                explanation:
                    "certificateCheckingOrder rootToLeaf with only the leaf pinned: the order changes the search, never the verdict.",
                handler: .evaluator("pin leaf, rootToLeaf", order: .rootToLeaf) {
                    try localhost([try $0.pin("valid-ec256", "leaf"), try $0.backupPin()])
                }, .accepted),
            pinCase(
                "pin.mismatch.no-pin-matched", "a chain with none of the pins is refused with noPinMatched, leaking no request byte",
                rules: ["PIN-6", "TRUST-3"],
                explanation: "A policy for localhost pinning an unknown key and the backup: the verified chain has neither pin.",
                handler: .evaluator("pin unknown + backup") { try localhost([unknownPin, try $0.backupPin()]) }, .refused("noPinMatched"),
                checks: [.challenges(1)]),
            pinCase(
                "pin.order.root-to-leaf.root-not-served", "checking root to leaf finds a pin on the root the server does not send",
                rules: ["PIN-5"],
                explanation:
                    "certificateCheckingOrder rootToLeaf with only root A pinned (and the backup): the verified chain ends at root A, so the server is trusted, as it is leaf to root (pin.intermediate.root-not-served). A search that walks the served certificates backwards, instead of the verified chain, passes pin.order.root-to-leaf and never meets root A here.",
                handler: .evaluator("pin root A, rootToLeaf", order: .rootToLeaf) {
                    try localhost([try $0.pin("valid-ec256", "root"), try $0.backupPin()])
                }, .accepted),
            pinCase(
                "pin.mismatch.trusted-root-of-another-chain",
                "a pin on a root the stack trusts, but not the one this chain ends at, is refused with noPinMatched",
                rules: ["PIN-6", "TRUST-3"],
                explanation:
                    "The stack trusts roots A and B; valid-ec256 chains to root A, and the policy pins root B (and the backup): no certificate of the verified chain has a pin, so the server is refused. A stack that hands the handler its trusted roots as part of the verified chain, rather than the one anchor the verifier reached, passes pin.mismatch.no-pin-matched, whose pins are on no certificate at all, and is accepted here.",
                trustedRoots: ["roots/root-a.pem", "roots/root-b.pem"],
                handler: .evaluator("pin root B + backup") { try localhost([try $0.pin("attacker-ca", "root"), try $0.backupPin()]) },
                .refused("noPinMatched")),
        ]
    }

    private static var backupPins: [ConformanceCase] {
        let rules = ["PIN-13"]
        return [
            pinCase(
                "pin.backup.only-backup-refused", "a policy whose only matching candidate is the backup key refuses the server",
                rules: rules,
                explanation:
                    "enforceBackupPin with two pins that are both kept out of the chain (the spare key and an unknown one): the backup never matches a served chain.",
                handler: .evaluator("backup + unknown, enforced") {
                    [try policy("localhost", [try $0.backupPin(), unknownPin], enforceBackupPin: true)]
                },
                .refused("noPinMatched")),
            pinCase(
                "pin.backup.chain-pin-and-backup", "a chain pin plus a backup pin, with the backup enforced, accepts the server",
                rules: rules, explanation: "enforceBackupPin with the intermediate's pin and the spare key's: the intermediate matches.",
                handler: .evaluator("intermediate + backup, enforced") {
                    [try policy("localhost", [try $0.pin("valid-ec256", "intermediate-1"), try $0.backupPin()], enforceBackupPin: true)]
                }, .accepted),
        ]
    }

    // MARK: Which policy applies

    private static var policySelection: [ConformanceCase] {
        return [
            pinCase(
                "pin.not-pinned.allowed", "a host no policy covers gets standard validation when allowNotPinnedDomains",
                rules: ["PIN-11"],
                explanation:
                    "A policy for other.example.test only, allowNotPinnedDomains: localhost is not pinned, standard validation passes.",
                handler: .evaluator("other host only", allowNotPinnedDomains: true) {
                    [try policy("other.example.test", [unknownPin, try $0.backupPin()])]
                },
                .accepted),
            pinCase(
                "pin.not-pinned.refused", "a host no policy covers is refused with noPolicyForHost by default",
                rules: ["PIN-11"],
                explanation: "A policy for other.example.test only, allowNotPinnedDomains false (the default): localhost is refused.",
                handler: .evaluator("other host only") {
                    [try policy("other.example.test", [try $0.pin("valid-ec256", "intermediate-1"), try $0.backupPin()])]
                },
                .refused("noPolicyForHost")),
            pinCase(
                "pin.host.case-and-trailing-dot", "a policy written LocalHost. covers localhost",
                rules: ["PIN-7"],
                explanation:
                    "Host names compare case-insensitively and ignore one trailing dot: the policy applies (its unknown pins refuse the server).",
                handler: .evaluator("LocalHost. unknown pins", allowNotPinnedDomains: true) {
                    [try policy("LocalHost.", [unknownPin, try $0.backupPin()])]
                },
                .refused("noPinMatched")),
            pinCase(
                "pin.overlap.exact-beats-parent-refuses",
                "the exact domain's policy wins over a covering parent policy, even when only the parent's pins match",
                rules: ["PIN-9"],
                explanation:
                    "wildcard (api.example.test): example.test with includeSubdomains pins the intermediate; api.example.test pins an unknown key. The exact policy decides: noPinMatched.",
                scenario: "wildcard", host: "api.example.test",
                handler: .evaluator("example.test/* matching, api.example.test not") {
                    [
                        try policy("example.test", subdomains: true, [try $0.pin("wildcard", "intermediate-1"), try $0.backupPin()]),
                        try policy("api.example.test", [unknownPin, try $0.backupPin()]),
                    ]
                }, .refused("noPinMatched")),
            pinCase(
                "pin.overlap.exact-beats-parent-accepts", "the exact domain's policy wins whatever the order policies are given in",
                rules: ["PIN-9"],
                explanation:
                    "wildcard (api.example.test): api.example.test pins the intermediate, listed after example.test/* which pins an unknown key: accepted.",
                scenario: "wildcard", host: "api.example.test",
                handler: .evaluator("api.example.test matching, example.test/* not") {
                    [
                        try policy("example.test", subdomains: true, [unknownPin, try $0.backupPin()]),
                        try policy("api.example.test", [try $0.pin("wildcard", "intermediate-1"), try $0.backupPin()]),
                    ]
                }, .accepted),
        ]
    }

    private static var expiry: [ConformanceCase] {
        let rules = ["PIN-12", "TRUST-7"]
        let expiration = Date(timeIntervalSince1970: 4_102_444_800)  // 2100-01-01, before the certificates end (2120)
        let later = Date(timeIntervalSince1970: 4_418_064_000)  // 2110
        let earlier = Date(timeIntervalSince1970: 3_786_825_600)  // 2090
        return [
            pinCase(
                "pin.expired.allowed", "an expired policy falls back to standard validation when allowExpiredDomainPolicies (the default)",
                rules: rules,
                explanation:
                    "The policy expires in 2100 and pins an unknown key; checked in 2110 it no longer applies, and the chain is valid then.",
                handler: .evaluator("unknown pins, expires 2100") {
                    [try policy("localhost", expires: expiration, [unknownPin, try $0.backupPin()])]
                },
                verificationTime: later, .accepted),
            pinCase(
                "pin.expired.refused", "an expired policy refuses with policyExpired when allowExpiredDomainPolicies is false",
                rules: rules,
                explanation:
                    "The policy expires in 2100 and pins the intermediate; checked in 2110 it has expired and expiry is not allowed: refused even though the pin matches.",
                handler: .evaluator("intermediate pin, expires 2100", allowExpiredDomainPolicies: false) {
                    [try policy("localhost", expires: expiration, [try $0.pin("valid-ec256", "intermediate-1"), try $0.backupPin()])]
                }, verificationTime: later, .refused("policyExpired")),
            pinCase(
                "pin.expired.not-yet", "a policy before its expiration date is enforced",
                rules: rules, explanation: "The policy expires in 2100 and pins an unknown key; checked in 2090 it applies: noPinMatched.",
                handler: .evaluator("unknown pins, expires 2100") {
                    [try policy("localhost", expires: expiration, [unknownPin, try $0.backupPin()])]
                },
                verificationTime: earlier, .refused("noPinMatched")),
        ]
    }

    private static var subdomains: [ConformanceCase] {
        let rules = ["PIN-8"]
        return [
            pinCase(
                "pin.subdomains.subdomain-covered", "includeSubdomains covers a subdomain",
                rules: rules,
                explanation: "wildcard (api.example.test) against example.test with includeSubdomains pinning the intermediate: accepted.",
                scenario: "wildcard", host: "api.example.test",
                handler: .evaluator("example.test/* intermediate") {
                    [try policy("example.test", subdomains: true, [try $0.pin("wildcard", "intermediate-1"), try $0.backupPin()])]
                },
                .accepted),
            pinCase(
                "pin.subdomains.subdomain-enforced", "includeSubdomains enforces the parent's pins on a subdomain",
                rules: rules,
                explanation:
                    "wildcard (api.example.test) against example.test with includeSubdomains pinning an unknown key, unpinned hosts allowed: the policy covers the host and refuses it.",
                scenario: "wildcard", host: "api.example.test",
                handler: .evaluator("example.test/* unknown", allowNotPinnedDomains: true) {
                    [try policy("example.test", subdomains: true, [unknownPin, try $0.backupPin()])]
                },
                .refused("noPinMatched")),
            pinCase(
                "pin.subdomains.not-included", "without includeSubdomains a policy covers its domain only",
                rules: rules,
                explanation: "wildcard (api.example.test) against example.test without includeSubdomains: no policy covers the host.",
                scenario: "wildcard", host: "api.example.test",
                handler: .evaluator("example.test only") {
                    [try policy("example.test", [try $0.pin("wildcard", "intermediate-1"), try $0.backupPin()])]
                },
                .refused("noPolicyForHost")),
            pinCase(
                "pin.subdomains.look-alike", "a look-alike suffix that is not on a label boundary is not covered",
                rules: rules,
                explanation:
                    "wildcard (api.example.test) against pi.example.test with includeSubdomains (and a matching pin): api.example.test ends with the text \"pi.example.test\" but is not a subdomain of it, so no policy covers the host (xexample.test-style look-alike).",
                scenario: "wildcard", host: "api.example.test",
                handler: .evaluator("pi.example.test/*") {
                    [try policy("pi.example.test", subdomains: true, [try $0.pin("wildcard", "intermediate-1"), try $0.backupPin()])]
                },
                .refused("noPolicyForHost")),
            pinCase(
                "pin.subdomains.parent-not-covered", "a policy never covers a parent of its domain",
                rules: rules,
                explanation:
                    "multi-host (a.example.test) against x.a.example.test with includeSubdomains (and a matching pin): a.example.test is its parent, never covered (Alicerce matched parents).",
                scenario: "multi-host", host: "a.example.test",
                handler: .evaluator("x.a.example.test/*") {
                    [try policy("x.a.example.test", subdomains: true, [try $0.pin("multi-host", "intermediate-1"), try $0.backupPin()])]
                },
                .refused("noPolicyForHost")),
        ]
    }

    // MARK: Bypasses that must fail

    private static var bypasses: [ConformanceCase] {
        let rules = ["PIN-3"]
        let fixtures = try? FixtureCatalogue.locate()
        let rescue =
            "Pins add to standard validation and never replace it: every pin of the served chain is configured, and the chain failure still refuses."
        var cases = [
            pinCase(
                "pin.attacker.ca-refused", "a chain to another trusted root is refused when root A's chain is pinned",
                rules: rules,
                explanation:
                    "attacker-ca chains to root B, which the stack trusts; the policy pins valid-ec256's intermediate and root A: noPinMatched.",
                scenario: "attacker-ca",
                handler: .evaluator("pin valid-ec256 intermediate + root A") {
                    try localhost([try $0.pin("valid-ec256", "intermediate-1"), try $0.pin("valid-ec256", "root")])
                },
                .refused("noPinMatched")),
            pinCase(
                "pin.attacker.pinned-intermediate-served", "a pinned intermediate merely served beside an attacker chain never matches",
                rules: rules,
                explanation:
                    "attacker-with-pinned-intermediate serves the attacker chain (root B) plus valid-ec256's pinned intermediate, which is not on the verified path: noPinMatched (the OkHttp CVE-2016-2402 class).",
                scenario: "attacker-with-pinned-intermediate",
                handler: .evaluator("pin valid-ec256 intermediate") {
                    try localhost([try $0.pin("valid-ec256", "intermediate-1"), try $0.backupPin()])
                },
                .refused("noPinMatched"),
                checks: [
                    .challenge(
                        host: "localhost", servedPins: nil,
                        verifiedPins: fixtures?.scenario("attacker-with-pinned-intermediate")?.verifiedChainPins ?? ["?"])
                ]),
            pinCase(
                "pin.extra-served.unrelated-pinned-refused", "pinning only an unrelated certificate the server appends never matches",
                rules: rules,
                explanation:
                    "extra-unrelated-cert serves a valid chain plus root B's intermediate; only that extra certificate is pinned: noPinMatched.",
                scenario: "extra-unrelated-cert",
                handler: .evaluator("pin the extra certificate") {
                    try localhost([try $0.pin("extra-unrelated-cert", "extra"), try $0.backupPin()])
                },
                .refused("noPinMatched")),
            pinCase(
                "pin.extra-served.chain-pin-accepted", "an extra served certificate does not disturb a pin on the verified chain",
                rules: rules, explanation: "extra-unrelated-cert with its own intermediate pinned: accepted.",
                scenario: "extra-unrelated-cert",
                handler: .evaluator("pin the intermediate") {
                    try localhost([try $0.pin("extra-unrelated-cert", "intermediate-1"), try $0.backupPin()])
                },
                .accepted),
        ]
        for (scenario, reason) in [
            ("expired-leaf", "chainNotTrusted(expired)"), ("untrusted-root", "chainNotTrusted(unable-to-get-issuer)"),
            ("self-signed-leaf", "chainNotTrusted(self-signed)"), ("wrong-host", "hostnameMismatch"),
        ] {
            cases.append(
                pinCase(
                    "pin.no-rescue.\(scenario)", "a matching pin never rescues \(scenario)",
                    rules: ["PIN-4"], explanation: "\(scenario) with its served certificates' pins configured. \(rescue)",
                    scenario: scenario,
                    handler: .evaluator("pin every served certificate of \(scenario)") { fixtures in
                        let pins = (fixtures.scenario(scenario)?.certificates ?? []).map(\.pin)
                        guard !pins.isEmpty else { throw MissingPin(scenario: scenario, role: "any") }
                        return try localhost(pins)
                    }, .refused(reason)))
        }
        return cases
    }
}
