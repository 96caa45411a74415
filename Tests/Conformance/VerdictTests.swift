import Conformance
import Foundation
import Testing

@Suite("Verdicts are open names, written as plain strings")
struct VerdictTests {

    private func report(_ verdicts: [Verdict]) -> SuiteReport {
        let cases = verdicts.enumerated().map { index, verdict in
            CaseResult(
                id: "a.case-\(index)", title: "case \(index)", rules: ["FETCH-1"], level: .must, verdict: verdict,
                reason: verdict == .pass ? nil : "because", mismatches: [],
                expected: .init(outcome: Outcome(kind: .success), journal: .any, checks: []), actual: Outcome(kind: .success),
                completions: 1, journal: [], durationMilliseconds: 1)
        }
        return SuiteReport(
            subject: .init(name: "s", summary: "s", unsupportedFeatures: [:]), startedAt: Date(), durationSeconds: 1, cases: cases)
    }

    @Test("each verdict is written as its plain name, and the known ones are the schema's")
    func writtenAsPlainNames() throws {
        let json = String(decoding: try JSONEncoder().encode(Verdict.known), as: UTF8.self)
        #expect(json == #"["PASS","FAIL","SKIP","ERROR","HANG","FLAKY","CRASH"]"#)
        #expect(Verdict.known.map(\.rawValue) == ReportSchemaNames.names(at: ["$defs", "verdict"]))
    }

    @Test("a report with a verdict this version does not know is read, keeps the verdict, and writes it back unchanged")
    func unknownVerdictIsKept() throws {
        let written = String(decoding: try JSONReport.encode(report([.pass])), as: UTF8.self)
        let later = written.replacingOccurrences(of: #""verdict" : "PASS""#, with: #""verdict" : "TIMEOUT""#)
        #expect(later != written)
        let read = try JSONReport.decode(Data(later.utf8))
        let verdict = try #require(read.cases.first?.verdict)
        #expect(verdict.rawValue == "TIMEOUT")
        #expect(verdict == Verdict(rawValue: "TIMEOUT"))
        #expect(!Verdict.known.contains(verdict))
        #expect(String(decoding: try JSONReport.encode(read), as: UTF8.self) == later)
    }

    @Test("a verdict this version does not know fails the run, and a comparison counts it as a new failure")
    func unknownVerdictFailsClosed() {
        let unknown = Verdict(rawValue: "TIMEOUT")
        #expect(unknown.failsRun)
        #expect(!report([.pass, unknown]).passed)
        let comparison = ReportComparison(baseline: report([.pass, .pass]), current: report([.pass, unknown]))
        #expect(comparison.newFailures.map(\.id) == ["a.case-1"])
        #expect(Verdict.known.filter { !$0.failsRun } == [.pass, .skip])
    }

    @Test("a verdict this version does not know is a JUnit error and is listed as not passing in the text and Markdown reports")
    func unknownVerdictIsShown() {
        let shown = report([.pass, Verdict(rawValue: "TIMEOUT")])
        #expect(JUnitReport.render(shown).contains(#"<error message="because" type="TIMEOUT">"#))
        #expect(TextReport.render(shown).contains("TIMEOUT [MUST] a.case-1"))
        #expect(MarkdownReport.render(shown).contains("### `a.case-1` — TIMEOUT (MUST)"))
    }
}
