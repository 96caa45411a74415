import Conformance
import Foundation
import Testing

/// A case that did not pass is shown with its explanation and the text of each rule it cites, in every format.
@Suite("Reports quote the explanation and the rules of a case that did not pass")
struct ReportQuotingTests {

    private let report: SuiteReport = {
        let failing = CaseResult(
            id: "clientcert.required.missing.tls13", title: "a missing certificate", rules: ["ERR-23"], level: .must, verdict: .fail,
            reason: nil, mismatches: ["urlError: expected clientCertificateRequired (-1206), got unknown (-1)"],
            expected: .init(outcome: Outcome(kind: .url, urlErrorCode: -1206), journal: .any, checks: []),
            actual: Outcome(kind: .url, urlErrorCode: -1), completions: 1, journal: [], durationMilliseconds: 1,
            explanation: "The server requires a client certificate; the stack presents none.")
        return SuiteReport(
            subject: .init(name: "s", summary: "s", unsupportedFeatures: [:]), startedAt: Date(), durationSeconds: 1, cases: [failing])
    }()

    @Test("the report carries the text of each cited rule, from docs/spec")
    func theReportCarriesRuleTexts() throws {
        let rule = try #require(report.rules?["ERR-23"])
        #expect(rule.level == .must)
        #expect(rule.file == "errors.md")
        #expect(rule.summary.hasPrefix("A server that refuses the client's certificate fails the fetch"))
    }

    @Test("text, Markdown and JUnit quote the explanation and the rule")
    func everyFormatQuotes() {
        let text = TextReport.render(report)
        let markdown = MarkdownReport.render(report)
        let junit = JUnitReport.render(report)

        #expect(text.contains("    why:      The server requires a client certificate; the stack presents none."))
        #expect(text.contains("    ERR-23:  MUST. A server that refuses the client's certificate"))
        #expect(markdown.contains("> The server requires a client certificate; the stack presents none."))
        #expect(markdown.contains("- [ERR-23](../spec/errors.md#err-23) MUST: A server that refuses"))
        #expect(junit.contains("why: The server requires a client certificate"))
        #expect(junit.contains("ERR-23 MUST: A server that refuses"))
    }
}
