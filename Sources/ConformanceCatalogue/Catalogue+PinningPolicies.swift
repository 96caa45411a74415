import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore
import Pinning

extension Catalogue {

    // MARK: Which policy applies

    static var policySelection: [ConformanceCase] {
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

    static var expiry: [ConformanceCase] {
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

    static var subdomains: [ConformanceCase] {
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
}
