import Conformance
import Foundation
import Reference
import TestTraits
import Testing
import ReferenceConformance

/// A subject that declares every feature unsupported: only the cases that ask nothing of a stack run for it.
private struct FeaturelessSubject: ConformanceSubject {
    var name: String { "featureless" }
    var unsupportedFeatures: [SubjectFeature: String] {
        Dictionary(uniqueKeysWithValues: SubjectFeature.known.map { ($0, "declined by the test") })
    }

    func makeStack(for environment: StackEnvironment) throws -> Network.URLSessionNetworkStack {
        try ReferenceSubject().makeStack(for: environment)
    }
}

@Suite("Configuration cases judge the project's handlers, not the subject", .scaledTimeLimit(minutes: 1), .blocking)
struct PinningConfigurationCaseTests {

    private var cases: [ConformanceCase] { Catalogue.filter(Catalogue.all, glob: "pin.configuration.*") }

    @Test("a configuration that must not be made requires no feature of the subject")
    func requireNothing() {
        #expect(cases.count == 9)
        for testCase in cases { #expect(testCase.requires.isEmpty, "\(testCase.id): \(testCase.requires)") }
    }

    @Test("a subject without any trust hook runs the configuration cases, and they pass")
    func runWithoutFeatures() async throws {
        let runner = try ConformanceRunner(subject: FeaturelessSubject())
        let report = await runner.run(cases)
        for result in report.cases where result.verdict != .pass { Issue.record("\(result.id): \(result.verdict) \(result.reason ?? "")") }
        #expect(report.summary.pass == 9)
    }
}
