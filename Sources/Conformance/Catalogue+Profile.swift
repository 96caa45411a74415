import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

extension Catalogue {

    /// The strict validation profile across the catalogue's profile scenarios (manifest kind `profile`):
    /// chains standard OpenSSL verification accepts but RFC 5280 or the CA/Browser Forum Baseline
    /// Requirements forbid, and the two chains strict verification must still accept. Every case needs
    /// ``SubjectFeature/strictValidationProfile``: a stack that does not apply the rules SKIPs them.
    static var profile: [ConformanceCase] {
        guard let fixtures = try? FixtureCatalogue.locate(),
            let data = try? Data(contentsOf: fixtures.directory.appendingPathComponent("manifest.json")),
            let manifest = try? JSONDecoder().decode(ProfileManifest.self, from: data)
        else { return [] }
        return manifest.scenarios.filter { $0.kind == "profile" }.map(profileCase)
    }

    /// What the conformance library needs of a profile scenario beyond ``FixtureCatalogue/Scenario``.
    private struct ProfileManifest: Decodable {
        struct Scenario: Decodable {
            struct Verdict: Decodable { var expected: String; var depth: Int? }
            var name: String
            var kind: String
            var host: String?
            var description: String?
            var verificationTime: String?
            var profiles: [String: Verdict]?
        }
        var scenarios: [Scenario]
    }

    private static func profileCase(_ scenario: ProfileManifest.Scenario) -> ConformanceCase {
        let host = scenario.host ?? "localhost"
        let verdict = scenario.profiles?["strict"]?.expected ?? "valid"
        let time = scenario.verificationTime.flatMap { ISO8601DateFormatter().date(from: $0) }
        var requires: Set<SubjectFeature> = [.strictValidationProfile]
        if host != "localhost" { requires.insert(.resolveOverrides) }
        if time != nil { requires.insert(.verificationTime) }
        let code: URLError.Code = verdict == "expired" ? .serverCertificateHasBadDate : .serverCertificateUntrusted
        let name = String(scenario.name.dropFirst("profile-".count))
        return ConformanceCase(
            id: "trust.profile.\(name)",
            title: verdict == "valid"
                ? "strict validation accepts \(scenario.name)"
                : "strict validation refuses \(scenario.name) (\(verdict)) with \(URLErrorName.describe(code.rawValue))",
            rules: verdict == "valid" ? ["TRUST-8"] : ["TRUST-8", "ERR-13", "TRUST-3"],
            level: .should,
            explanation: "\(scenario.description ?? scenario.name). No handler, the default (strict) profile: "
                + (verdict == "valid"
                    ? "the fetch succeeds."
                    : "the fetch fails before any request byte is sent, with the chain failure kind \(verdict)."),
            requires: requires,
            server: ServerScript(tlsScenario: scenario.name, host: host, responses: [ok("trusted")]),
            stack: StackSetup(verificationTime: time),
            expected: verdict == "valid"
                ? Expectation(success("trusted"), journal: .requests(1))
                : Expectation(
                    Outcome(kind: .url, urlErrorCode: code.rawValue, trustFailure: "chain:\(verdict)"),
                    journal: JournalExpectation(requests: 0, noApplicationBytes: true)))
    }
}
