import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

extension Catalogue {

    /// The strict validation profile across the catalogue's profile scenarios (manifest kind `profile`):
    /// chains standard OpenSSL verification accepts but RFC 5280 or the CA/Browser Forum Baseline
    /// Requirements forbid, and the chains strict verification must still accept, each with its roots named public;
    /// then a few of them again under the same roots as private ones, where only RFC 5280's and the security rules
    /// apply. Every case needs ``SubjectFeature/strictValidationProfile``: a stack that does not apply the rules SKIPs
    /// them; a stack that declares it is held to all of them (MUST).
    static func profile(_ fixtures: FixtureCatalogue?) -> [ConformanceCase] {
        // A catalogue without them is incomplete, which a runner refuses (``CatalogueIncomplete``), never a shorter run.
        guard let manifest = try? fixtures?.profileManifest() else { return [] }
        let scenarios = manifest.scenarios.filter { $0.kind == "profile" }
        let privateRoot = scenarios.compactMap { scenario in
            privateRootVerdicts[scenario.name].map { profileCase(scenario, verdict: $0, publicRoots: false) }
        }
        return scenarios.map { profileCase($0, verdict: $0.profiles?["strict"]?.expected ?? "valid", publicRoots: true) } + privateRoot
    }

    /// The verdict of the strict profile under private roots, for the scenarios that show each class of rule: those
    /// the Baseline Requirements alone forbid are accepted, those RFC 5280 or security forbid are still refused.
    private static let privateRootVerdicts: [String: String] = [
        "profile-cn-not-in-san": "valid", "profile-serial-zero": "valid", "profile-eku-critical": "valid",
        "profile-eku-server-and-any": "valid", "profile-public-suffix-wildcard": "valid",
        "profile-san-underscore": "malformed-name", "profile-key-rsa2040": "forbidden-key", "profile-ca-as-leaf": "ca-used-as-leaf",
        "profile-nc-wildcard-bypass": "name-constraint-violation",
    ]

    private static func profileCase(_ scenario: FixtureCatalogue.ProfileManifest.Scenario, verdict: String, publicRoots: Bool)
        -> ConformanceCase
    {
        let host = scenario.host ?? "localhost"
        let time = scenario.verificationTime.flatMap { ISO8601DateFormatter().date(from: $0) }
        var requires: Set<SubjectFeature> = [.strictValidationProfile]
        if host != "localhost" { requires.insert(.resolveOverrides) }
        if time != nil { requires.insert(.verificationTime) }
        if scenario.name.contains("cross-signed") { requires.insert(.pathBuilding) }
        let code: URLError.Code = verdict == "expired" ? .serverCertificateHasBadDate : .serverCertificateUntrusted
        let name = String(scenario.name.dropFirst("profile-".count))
        let roots = publicRoots ? "its roots named public" : "its roots as private roots a user added"
        return ConformanceCase(
            id: publicRoots ? "trust.profile.\(name)" : "trust.profile.private-root.\(name)",
            title: (verdict == "valid"
                ? "strict validation accepts \(scenario.name)"
                : "strict validation refuses \(scenario.name) (\(verdict)) with \(URLErrorName.describe(code.rawValue))")
                + (publicRoots ? "" : " under a private root"),
            rules: verdict == "valid" ? ["TRUST-8"] : ["TRUST-8", "ERR-13", "TRUST-3"],
            explanation: "\(scenario.description ?? scenario.name). No handler, the default (strict) profile, \(roots): "
                + (verdict == "valid"
                    ? "the fetch succeeds."
                    : "the fetch fails before any request byte is sent, with the chain failure kind \(verdict)."),
            requires: requires,
            server: ServerScript(tlsScenario: scenario.name, host: host, responses: [ok("trusted")]),
            stack: StackSetup(rootsArePublic: publicRoots, verificationTime: time),
            expected: verdict == "valid"
                ? Expectation(success("trusted"), journal: .requests(1))
                : Expectation(
                    Outcome(kind: .url, urlErrorCode: code.rawValue, trustFailure: "chain:\(verdict)"),
                    journal: JournalExpectation(requests: 0, noApplicationBytes: true)))
    }
}
