import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// The host as the URL spells it (capitals, one trailing dot) against the canonical form a certificate,
    /// an SNI name and a pinning policy use (TRUST-9, PIN-7): the lookup, the SNI and the host-name check
    /// must all agree with the lower-case, dot-less name.
    static var hostSpelling: [ConformanceCase] {
        let spellings = [("capitals", "API.Example.TEST"), ("trailing-dot", "api.example.test.")]
        var cases: [ConformanceCase] = []
        for (name, host) in spellings {
            cases.append(
                ConformanceCase(
                    id: "trust.host-spelling.\(name).wildcard-accepted",
                    title: "a request to \(host) matches the certificate for *.example.test and sends SNI api.example.test",
                    rules: ["TRUST-9", "TRUST-1"],
                    explanation:
                        "wildcard (SAN *.example.test) reached as \(host), no handler: the host-name check compares the canonical name, so the chain is trusted; the SNI name is the host without a trailing dot.",
                    requires: [.resolveOverrides], server: .tls("wildcard", host: host, ok("spelled")),
                    expected: Expectation(
                        success("spelled"), journal: .requests(1), checks: [.requestSNI(index: 0, name: "api.example.test")])))
        }
        for (name, host) in [("capitals", "A.EXAMPLE.Test"), ("trailing-dot", "b.example.test.")] {
            cases.append(
                ConformanceCase(
                    id: "trust.host-spelling.\(name).exact-san-accepted",
                    title: "a request to \(host) matches an exact DNS name of the certificate",
                    rules: ["TRUST-9", "TRUST-1"],
                    explanation:
                        "multi-host (SAN a.example.test, b.example.test, localhost) reached as \(host): an exact SAN, not a wildcard, still matches the canonical name.",
                    requires: [.resolveOverrides], server: .tls("multi-host", host: host, ok("spelled")),
                    expected: Expectation(
                        success("spelled"), journal: .requests(1),
                        checks: [.requestSNI(index: 0, name: host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: ".")))])))
        }
        cases.append(
            ConformanceCase(
                id: "trust.host-spelling.capitals.wrong-host-refused", title: "capitals never make a certificate for another host match",
                rules: ["TRUST-9", "TRUST-1", "TRUST-3"],
                explanation:
                    "wrong-host (SAN wrong.example.test) reached as Other.Example.TEST: the canonical names differ, so the chain is refused before any request byte.",
                requires: [.resolveOverrides], server: .tls("wrong-host", host: "Other.Example.TEST", ok()),
                expected: Expectation(url(.serverCertificateUntrusted), journal: JournalExpectation(requests: 0, noApplicationBytes: true)))
        )
        for (name, host) in spellings {
            cases.append(
                pinCase(
                    "pin.host-spelling.\(name).policy-applies", "a policy for api.example.test applies to a request to \(host)",
                    rules: ["TRUST-9", "PIN-7"],
                    explanation:
                        "wildcard reached as \(host); the only policy is for api.example.test and pins an unknown key, with allowNotPinnedDomains: the policy is found, so its pins refuse the server (a missed lookup would fall back to standard validation and pass).",
                    scenario: "wildcard", host: host,
                    handler: .evaluator("api.example.test unknown pins", allowNotPinnedDomains: true) {
                        [try policy("api.example.test", [unknownPin, try $0.backupPin()])]
                    },
                    .refused("noPinMatched")))
            cases.append(
                pinCase(
                    "pin.host-spelling.\(name).policy-accepts",
                    "a policy for api.example.test pinning the chain accepts a request to \(host)",
                    rules: ["TRUST-9", "PIN-7"],
                    explanation:
                        "wildcard reached as \(host); the only policy is for api.example.test and pins the intermediate, without allowNotPinnedDomains: a missed lookup would refuse with noPolicyForHost.",
                    scenario: "wildcard", host: host,
                    handler: .evaluator("api.example.test intermediate") {
                        [try policy("api.example.test", [try $0.pin("wildcard", "intermediate-1"), try $0.backupPin()])]
                    },
                    .accepted, checks: [.requestSNI(index: 0, name: "api.example.test")]))
        }
        return cases
    }

    /// Several `includeSubdomains` policies covering a host three or four labels below `example.test`: the
    /// covering policy with the longest domain decides alone, whatever the order (PIN-8, PIN-9).
    static var policyDepth: [ConformanceCase] {
        let scenario = "deep-subdomains"
        let rules = ["PIN-9", "PIN-8"]
        @Sendable func matching(_ fixtures: FixtureCatalogue) throws -> [String] {
            [try fixtures.pin(scenario, "intermediate-1"), try fixtures.backupPin()]
        }
        @Sendable func unknown(_ fixtures: FixtureCatalogue) throws -> [String] { [unknownPin, try fixtures.backupPin()] }
        return [
            pinCase(
                "pin.overlap.deep.longest-refuses",
                "of three covering policies, the longest decides: its unknown pins refuse a.b.c.example.test",
                rules: rules,
                explanation:
                    "example.test/* and c.example.test/* pin the intermediate; b.c.example.test/* pins an unknown key. b.c.example.test is the longest covering domain: noPinMatched, with no fall-back to the shorter ones.",
                scenario: scenario, host: "a.b.c.example.test",
                handler: .evaluator("example.test/*, c.example.test/* matching; b.c.example.test/* not") {
                    [
                        try policy("example.test", subdomains: true, matching($0)),
                        try policy("c.example.test", subdomains: true, matching($0)),
                        try policy("b.c.example.test", subdomains: true, unknown($0)),
                    ]
                }, .refused("noPinMatched")),
            pinCase(
                "pin.overlap.deep.longest-accepts",
                "of three covering policies, the longest decides even when listed first: its pin accepts a.b.c.example.test",
                rules: rules,
                explanation:
                    "b.c.example.test/* (listed first) pins the intermediate; c.example.test/* and example.test/* pin an unknown key: accepted.",
                scenario: scenario, host: "a.b.c.example.test",
                handler: .evaluator("b.c.example.test/* matching; c.example.test/*, example.test/* not") {
                    [
                        try policy("b.c.example.test", subdomains: true, matching($0)),
                        try policy("example.test", subdomains: true, unknown($0)),
                        try policy("c.example.test", subdomains: true, unknown($0)),
                    ]
                }, .accepted),
            pinCase(
                "pin.overlap.deep.four-labels.exact-parent-does-not-cover",
                "a policy for the parent without includeSubdomains does not cover x.a.b.c.example.test",
                rules: rules,
                explanation:
                    "x.a.b.c.example.test (four labels below example.test): a.b.c.example.test without includeSubdomains pins an unknown key but does not cover the host; of the covering b.c.example.test/* (matching) and example.test/* (unknown), the longer decides: accepted.",
                scenario: scenario, host: "x.a.b.c.example.test",
                handler: .evaluator("a.b.c.example.test (no subdomains) and example.test/* not; b.c.example.test/* matching") {
                    [
                        try policy("a.b.c.example.test", unknown($0)), try policy("example.test", subdomains: true, unknown($0)),
                        try policy("b.c.example.test", subdomains: true, matching($0)),
                    ]
                }, .accepted),
            pinCase(
                "pin.overlap.deep.four-labels.longest-subdomains-refuses",
                "a.b.c.example.test/* decides for x.a.b.c.example.test over shorter matching policies",
                rules: rules,
                explanation:
                    "x.a.b.c.example.test: a.b.c.example.test/* pins an unknown key; c.example.test/* and example.test/* pin the intermediate. The longest covering domain refuses: noPinMatched.",
                scenario: scenario, host: "x.a.b.c.example.test",
                handler: .evaluator("c.example.test/*, example.test/* matching; a.b.c.example.test/* not") {
                    [
                        try policy("c.example.test", subdomains: true, matching($0)),
                        try policy("example.test", subdomains: true, matching($0)),
                        try policy("a.b.c.example.test", subdomains: true, unknown($0)),
                    ]
                }, .refused("noPinMatched")),
        ]
    }
}
