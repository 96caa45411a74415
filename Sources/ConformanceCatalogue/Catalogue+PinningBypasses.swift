import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore
import Pinning

extension Catalogue {

    // MARK: Bypasses that must fail

    static func bypasses(_ fixtures: FixtureCatalogue?) -> [ConformanceCase] {
        let rules = ["PIN-3"]
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
