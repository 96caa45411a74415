import ConformanceModel
import Foundation
import NetworkCore

/// The report as Markdown, for humans and for `docs/`: the environment, a summary per family, then every
/// case that is not PASS with expected and actual, then the full list.
public enum MarkdownReport {

    /// Renders a report.
    public static func render(_ report: SuiteReport) -> String {
        var md = "# Conformance report: \(report.subject.name)\n\n"
        md += "\(report.subject.summary)\n\n"
        md += "| | |\n|---|---|\n"
        md += "| suite | \(report.suite) \(report.suiteVersion) (schema \(report.schemaVersion)) |\n"
        for (library, version) in (report.subject.libraryVersions ?? [:]).sorted(by: { $0.key < $1.key }) {
            md += "| subject's \(cell(library)) | \(cell(version)) |\n"
        }
        md += "| harness | \(cell(report.environment.openSSL)) |\n"
        if let libcurl = report.environment.libcurl { md += "| harness libcurl | \(cell(libcurl)) |\n" }
        md += "| cases | \(report.summary.description) |\n"
        md += "| wall time | \(String(format: "%.1f", report.durationSeconds)) s |\n\n"
        if !report.subject.unsupportedFeatures.isEmpty {
            md += "Features the subject declared unsupported (their cases are SKIP):\n\n"
            for (feature, reason) in report.subject.unsupportedFeatures.sorted(by: { $0.key < $1.key }) {
                md += "- `\(feature)`: \(reason)\n"
            }
            md += "\n"
        }
        md +=
            "## By family\n\n| family | cases | PASS | FAIL | SKIP | ERROR | HANG | FLAKY | CRASH |\n|---|---|---|---|---|---|---|---|---|\n"
        var families: [String] = []
        for result in report.cases where !families.contains(family(result)) { families.append(family(result)) }
        for name in families {
            let results = report.cases.filter { family($0) == name }
            func count(_ verdict: Verdict) -> Int { results.filter { $0.verdict == verdict }.count }
            md +=
                "| \(name) | \(results.count) | \(count(.pass)) | \(count(.fail)) | \(count(.skip)) | \(count(.error)) | \(count(.hang)) | \(count(.flaky)) | \(count(.crash)) |\n"
        }
        let problems = report.cases.filter { $0.verdict != .pass && $0.verdict != .skip }
        if !problems.isEmpty {
            md += "\n## Not passing\n\n"
            for result in problems {
                md += "### `\(result.id)` — \(result.verdict.rawValue) (\(result.level.rawValue))\n\n"
                md += "\(result.title) (rules \(result.rules.joined(separator: ", ")))\n\n"
                if let explanation = result.explanation { md += "> \(explanation)\n\n" }
                for rule in result.rules {
                    // Reports are committed in docs/conformance, beside docs/spec.
                    if let quoted = report.rules?[rule] {
                        let summary = SpecLinks.rebase(markdown: quoted.summary, ruleFile: quoted.file, specFolder: "../spec/")
                        md += "- [\(rule)](../spec/\(quoted.file)#\(rule.lowercased())) \(quoted.level.rawValue): \(summary)\n"
                    }
                }
                md += "- expected: \(result.expected.outcome)\n"
                md += "- actual: \(result.actual.map { shown("\($0)") } ?? "no completion")\n"
                for mismatch in result.mismatches { md += "- \(shown(mismatch))\n" }
                if result.mismatches.isEmpty, let reason = result.reason { md += "- \(shown(reason))\n" }
                md += "\n"
            }
        }
        let skipped = report.cases.filter { $0.verdict == .skip }
        if !skipped.isEmpty {
            md += "\n## Skipped\n\n| case | reason |\n|---|---|\n"
            for result in skipped { md += "| `\(result.id)` | \(cell(result.reason ?? "")) |\n" }
        }
        let hints = EnvironmentHint.hints(for: report)
        if !hints.isEmpty {
            md += "\n## Hints for the subject's author\n\n"
            for hint in hints { md += "- \(shown(hint.text))\n" }
        }
        md += "\n## All cases\n\n| case | level | verdict | ms | rules | title |\n|---|---|---|---|---|---|\n"
        for result in report.cases {
            md +=
                "| `\(result.id)` | \(result.level.rawValue) | \(result.verdict.rawValue) | \(Int(result.durationMilliseconds)) | \(result.rules.joined(separator: " ")) | \(cell(result.title)) |\n"
        }
        return md
    }

    private static func family(_ result: CaseResult) -> String { String(result.id.prefix { $0 != "." }) }

    private static func cell(_ text: String) -> String {
        shown(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// What a subject or a server wrote (a reason, a mismatch quoting a body), on one line and bounded (`DisplayText`).
    private static func shown(_ text: String) -> String { DisplayText.line(text, limit: 600) }
}
