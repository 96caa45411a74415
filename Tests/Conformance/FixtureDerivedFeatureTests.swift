import Conformance
import Foundation
import Reference
import TestTraits
import Testing
import ReferenceConformance

/// A subject that cannot let a handler overrule standard validation.
private struct NoOverrideSubject: ConformanceSubject {
    var name: String { "no-override" }
    var unsupportedFeatures: [SubjectFeature: String] { [.challengeOverridesValidation: "declined by the test"] }

    func makeStack(for environment: StackEnvironment) throws -> Network.URLSessionNetworkStack {
        try ReferenceSubject().makeStack(for: environment)
    }
}

@Suite("Features derived from the fixtures come from the catalogue the runner holds", .scaledTimeLimit(minutes: 1), .blocking)
struct FixtureDerivedFeatureTests {

    /// A copy of the fixture catalogue in which `valid-ec256` is a chain standard validation refuses.
    private func catalogueRefusingValidEC256() throws -> (FixtureCatalogue, URL) {
        let original = try FixtureCatalogue.locate()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fixtures-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: original.directory, to: folder)
        let manifestURL = folder.appendingPathComponent("manifest.json")
        var manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifestURL)) as? [String: Any])
        var scenarios = try #require(manifest["scenarios"] as? [[String: Any]])
        let index = try #require(scenarios.firstIndex { $0["name"] as? String == "valid-ec256" })
        scenarios[index]["expected"] = "untrusted-root"
        manifest["scenarios"] = scenarios
        try JSONSerialization.data(withJSONObject: manifest).write(to: manifestURL)
        return (try FixtureCatalogue(directory: folder), folder)
    }

    @Test("a case whose handler overrules a chain the runner's catalogue refuses is SKIP for a subject without that feature")
    func skipFollowsTheRunnersCatalogue() async throws {
        let (fixtures, folder) = try catalogueRefusingValidEC256()
        defer { try? FileManager.default.removeItem(at: folder) }
        // Made from the real manifest, where valid-ec256 is valid: nothing overrules validation as far as it knows.
        let cases = Catalogue.filter(Catalogue.all, glob: "trust.challenge.valid-ec256")
        let overruling = try #require(cases.first { $0.id == "trust.challenge.valid-ec256" })
        #expect(!overruling.requires.contains(.challengeOverridesValidation))

        let report = await (try ConformanceRunner(subject: NoOverrideSubject(), fixtures: fixtures)).run([overruling])

        #expect(report.cases.first?.verdict == .skip, "\(report.cases.first?.reason ?? "")")
    }
}
