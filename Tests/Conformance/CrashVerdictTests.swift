import Conformance
import Foundation
import Testing

@Suite("The CRASH verdict in reports")
struct CrashVerdictTests {

    private func result(_ id: String, _ verdict: Verdict) -> CaseResult {
        CaseResult(
            id: id, title: id, rules: ["FETCH-1"], level: .must, verdict: verdict,
            reason: verdict == .crash ? "the subject's process died of signal 4 (SIGILL, a Swift trap)" : nil,
            mismatches: [], expected: .init(outcome: Outcome(kind: .success), journal: .any, checks: []),
            actual: nil, completions: 0, journal: [], durationMilliseconds: 1)
    }

    private func report(_ cases: [CaseResult]) -> SuiteReport {
        SuiteReport(subject: .init(name: "s", summary: "s", unsupportedFeatures: [:]), startedAt: Date(), durationSeconds: 1, cases: cases)
    }

    @Test("a CRASH case fails the run and shows in the text, Markdown, JUnit and JSON reports")
    func crashInEveryFormat() throws {
        let report = report([result("a.one", .pass), result("a.two", .crash)])
        #expect(!report.passed)
        #expect(report.summary.crash == 1)
        #expect(report.summary.mustFailures == 1)
        #expect(TextReport.render(report).contains("CRASH [MUST] a.two"))
        #expect(TextReport.render(report).contains("1 crashed"))
        #expect(MarkdownReport.render(report).contains("— CRASH (MUST)"))
        #expect(MarkdownReport.render(report).contains("| CRASH |\n"))
        #expect(
            JUnitReport.render(report).contains(
                #"<error message="the subject's process died of signal 4"#.replacingOccurrences(of: "'", with: "&apos;")))
        #expect(JUnitReport.render(report).contains(#"type="CRASH""#))
        let json = try JSONReport.encode(report)
        #expect(String(decoding: json, as: UTF8.self).contains(#""verdict" : "CRASH""#))
        #expect(try JSONReport.decode(json).cases.map(\.verdict) == [.pass, .crash])
    }

    @Test("a case that passed and now crashes is a new failure in compare")
    func crashIsNewFailure() {
        let comparison = ReportComparison(baseline: report([result("a.one", .pass)]), current: report([result("a.one", .crash)]))
        #expect(comparison.newFailures.map(\.id) == ["a.one"])
    }

    @Test("a report written before CRASH existed, without its count, still decodes")
    func olderReportDecodes() throws {
        var object = try #require(
            try JSONSerialization.jsonObject(with: JSONReport.encode(report([result("a.one", .pass)]))) as? [String: Any])
        var summary = try #require(object["summary"] as? [String: Any])
        summary.removeValue(forKey: "crash")
        object["summary"] = summary
        let decoded = try JSONReport.decode(JSONSerialization.data(withJSONObject: object))
        #expect(decoded.summary.crash == nil)
        #expect(decoded.passed)
    }
}
