import ConformanceModel
import Foundation
import NetworkCore

/// The terminal report: a progress line per case while it runs, then the cases that are not PASS and
/// the summary.
public enum TextReport {

    /// One progress line: `[ 12/160] PASS  retry.max-retries.boundary-3 (41 ms)`.
    public static func progressLine(_ result: CaseResult, done: Int, total: Int, style: TerminalStyle = .plain) -> String {
        let width = String(total).count
        let counter = String(repeating: " ", count: max(0, width - String(done).count)) + "\(done)"
        let verdict = style.paint(result.verdict.rawValue.padding(toLength: 5, withPad: " ", startingAt: 0), as: result.verdict)
        var line = "[\(counter)/\(total)] \(verdict) \(result.id) (\(Int(result.durationMilliseconds)) ms)"
        if result.verdict != .pass, let reason = result.reason { line += " — \(shown(reason))" }
        return line
    }

    /// One line: the counts and the wall time.
    public static func summaryLine(_ report: SuiteReport) -> String {
        "\(shown(report.subject.name)): \(report.summary.description) in \(String(format: "%.1f", report.durationSeconds)) s"
    }

    /// The final summary: every case that is not PASS or SKIP, with expected and actual, the skipped cases with their
    /// reasons when `showSkips` is set (a count otherwise), then one line of counts that add up to the total.
    public static func render(_ report: SuiteReport, style: TerminalStyle = .plain, showSkips: Bool = false) -> String {
        var text = "\n\(report.suite) \(report.suiteVersion) against \(shown(report.subject.name)): \(shown(report.subject.summary))\n"
        if let libraries = report.subject.libraryVersions, !libraries.isEmpty {
            text +=
                "Subject libraries: " + shown(libraries.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: "; "))
                + "\n"
        }
        text += "Harness: \(report.environment.openSSL)\(report.environment.libcurl.map { "; libcurl: \($0)" } ?? "")\n\n"
        for result in report.cases where result.verdict != .pass && result.verdict != .skip {
            text +=
                "\(style.paint(result.verdict.rawValue, as: result.verdict)) [\(result.level.rawValue)] \(shown(result.id)): \(shown(result.title)) (rules \(result.rules.joined(separator: ", ")))\n"
            if let explanation = result.explanation { text += "    why:      \(explanation)\n" }
            for rule in result.rules {
                if let quoted = report.rules?[rule] { text += "    \(rule):  \(quoted.level.rawValue). \(quoted.summary)\n" }
            }
            text += "    expected: \(result.expected.outcome)\n"
            text += "    actual:   \(result.actual.map { shown("\($0)") } ?? "no completion")\n"
            for mismatch in result.mismatches { text += "    - \(shown(mismatch))\n" }
            if result.mismatches.isEmpty, let reason = result.reason { text += "    - \(shown(reason))\n" }
        }
        for hint in EnvironmentHint.hints(for: report) { text += "\nHint: \(shown(hint.text))\n" }
        let skips = report.cases.filter { $0.verdict == .skip }
        if showSkips, !skips.isEmpty {
            text += "\n"
            for result in skips { text += "\(style.paint("SKIP", as: .skip)) \(result.id): \(shown(result.reason ?? "no reason given"))\n" }
        } else if !skips.isEmpty {
            text += "\n\(skips.count) skipped (--show-skips lists them with their reasons)\n"
        }
        text += "\n\(report.summary.description) in \(String(format: "%.1f", report.durationSeconds)) s\n"
        return text
    }

    /// What a subject or a server wrote, on one line and bounded, so that it cannot drive the terminal (`DisplayText`).
    private static func shown(_ text: String) -> String { DisplayText.line(text, limit: 600) }
}
