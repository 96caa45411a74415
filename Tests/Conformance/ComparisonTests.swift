import Conformance
import Foundation
import Testing

@Suite("Comparing two reports lists new failures")
struct ComparisonTests {

    private func result(_ id: String, _ verdict: Verdict, level: ConformanceLevel = .must, reason: String = "because") -> CaseResult {
        CaseResult(
            id: id, title: id, rules: ["FETCH-1"], level: level, verdict: verdict, reason: verdict == .pass ? nil : reason,
            mismatches: [], expected: .init(outcome: Outcome(kind: .success), journal: .any, checks: []),
            actual: Outcome(kind: .success), completions: 1, journal: [], durationMilliseconds: 1)
    }

    private func report(_ cases: [CaseResult]) -> SuiteReport {
        SuiteReport(subject: .init(name: "s", summary: "s", unsupportedFeatures: [:]), startedAt: Date(), durationSeconds: 1, cases: cases)
    }

    @Test("a case that passed and now fails, errors or hangs is a new failure; one that now passes is fixed")
    func newFailuresAndFixes() {
        let before = report([
            result("a.one", .pass), result("a.two", .fail), result("a.three", .pass), result("a.four", .pass), result("a.gone", .pass),
        ])
        let after = report([
            result("a.one", .fail), result("a.two", .pass), result("a.three", .hang), result("a.four", .pass), result("a.new", .error),
        ])
        let comparison = ReportComparison(baseline: before, current: after)
        #expect(comparison.newFailures.map(\.id) == ["a.one", "a.three", "a.new"])
        #expect(comparison.fixed.map(\.id) == ["a.two"])
        #expect(comparison.otherChanges.map(\.id) == ["a.gone"])
    }

    @Test("a run passes unless a MUST case fails; SHOULD failures are reported, not fatal")
    func passedIgnoresShould() {
        #expect(report([result("a.one", .fail, level: .should), result("a.two", .skip)]).passed)
        #expect(!report([result("a.one", .hang)]).passed)
    }

    @Test("a pass now skipped is a regression, and the comparison totals what each undeclared feature cost")
    func passesLostToSkips() {
        let before = report([result("a.one", .pass), result("a.two", .pass), result("a.three", .pass), result("a.four", .skip)])
        let after = report([
            result("a.one", .skip, reason: "http2: no HTTP/2"), result("a.two", .skip, reason: "http2: no HTTP/2"),
            result("a.three", .skip, reason: "client-certificates: none"), result("a.four", .skip),
        ])

        let comparison = ReportComparison(baseline: before, current: after)

        #expect(comparison.newFailures.isEmpty)
        #expect(comparison.regressed)
        #expect(comparison.passesLostToSkips.map(\.id) == ["a.one", "a.two", "a.three"])
        #expect(comparison.passesLostByFeature.map(\.feature) == ["http2", "client-certificates"])
        #expect(comparison.passesLostByFeature.map(\.count) == [2, 1])
        #expect(
            comparison.text.contains("Passes now skipped, by the feature declared unsupported:\n  http2: 2\n  client-certificates: 1\n"))
    }
}
