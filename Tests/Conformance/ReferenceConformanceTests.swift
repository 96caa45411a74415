import Conformance
import Foundation
import TestTraits
import Testing

@Suite("The reference stack conforms", .scaledTimeLimit(minutes: 2), .blocking)
struct ReferenceConformanceTests {

    @Test("every MUST case passes against the reference stack")
    func everyMustCasePasses() async throws {
        let report = try await ReferenceRun.report.value
        for result in report.cases where result.level == .must && result.verdict.failsRun {
            Issue.record(
                "\(result.verdict.rawValue) \(result.id): \(result.title)\n  expected: \(result.expected.outcome)\n  actual: \(result.actual.map { "\($0)" } ?? "none")\n  \(result.mismatches.joined(separator: "\n  "))"
            )
        }
        #expect(report.summary.mustFailures == 0)
        #expect(report.summary.total == Catalogue.all.count)
    }

    @Test("the reference stack supports every feature, so no case is skipped")
    func nothingIsSkipped() async throws {
        let report = try await ReferenceRun.report.value
        #expect(report.cases.filter { $0.verdict == .skip }.map(\.id) == [])
    }
}
