import ConformanceModel
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
    static func pinning(_ fixtures: FixtureCatalogue?) -> [ConformanceCase] {
        keyTypes + chainPositions + backupPins + policySelection + expiry + subdomains + bypasses(fixtures) + pinningTrustManager
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
}
