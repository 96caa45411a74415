import ConformanceModel
import Foundation
import NetworkCore

/// The reports of one or more subjects as one self-contained HTML page: a matrix of cases × subjects, grouped by
/// family, with a coloured verdict per cell, filters, and a detail panel per case (`conformance report --html`).
///
/// A JSON report carries each case's title, rule IDs and explanation (reports before schema 2.4.0 have none), and
/// only the first sentence of each rule: the rules' full text comes from the rule book of the build that renders
/// the page, and a missing explanation from its catalogue (``explanations`` and ``rules``); the page says so where
/// one is missing.
package struct HTMLReport {
    /// The subjects' reports, one column each, in this order.
    package var reports: [SuiteReport]
    /// The rules of `docs/spec`, by ID.
    package var rules: [String: SpecRule]
    /// Each case's explanation, by case ID.
    package var explanations: [String: String]
    /// What the rule links start with: the spec directory relative to the page (`../spec/`).
    package var specLink: String

    /// Each case's explanation as its report states it (the first report that has one), else as the catalogue does:
    /// a report of another suite version keeps the words its cases were judged by.
    package static func explanations(of reports: [SuiteReport], else catalogue: [ConformanceCase]) -> [String: String] {
        var explanations = Dictionary(catalogue.map { ($0.id, $0.explanation) }, uniquingKeysWith: { first, _ in first })
        for result in reports.flatMap(\.cases).reversed() {
            if let explanation = result.explanation { explanations[result.id] = explanation }
        }
        return explanations
    }

    /// Creates a page.
    package init(reports: [SuiteReport], rules: [SpecRule], explanations: [String: String], specLink: String) {
        self.reports = reports
        self.rules = Dictionary(rules.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        self.explanations = explanations
        self.specLink = specLink
    }

    /// One row of the matrix: a case, and its result in each report (`nil` where that report lacks it).
    struct Row {
        var id: String
        var results: [CaseResult?]
        /// The first result there is: the case's title, level and rules come from it.
        var first: CaseResult { results.compactMap { $0 }[0] }
        var family: String { String(id.prefix { $0 != "." }) }
        var verdicts: [String] { results.map { $0?.verdict.rawValue ?? "absent" } }
        var differs: Bool { Set(verdicts).count > 1 }
    }

    /// Every case of any report, in the order the reports list them, grouped by family in order of first appearance.
    var families: [(name: String, rows: [Row])] {
        let indexed = reports.map { report in Dictionary(report.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first }) }
        var seen: Set<String> = []
        var groups: [(name: String, rows: [Row])] = []
        for report in reports {
            for result in report.cases where seen.insert(result.id).inserted {
                let row = Row(id: result.id, results: indexed.map { $0[result.id] })
                if let index = groups.firstIndex(where: { $0.name == row.family }) {
                    groups[index].rows.append(row)
                } else {
                    groups.append((row.family, [row]))
                }
            }
        }
        return groups
    }

    /// The page.
    package func render() -> String {
        let families = self.families
        var html = """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="\(Self.contentSecurityPolicy)">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Conformance: \(e(reports.map(\.subject.name).joined(separator: " vs ")))</title>
            <style>\(Self.style)</style></head>
            <body style="--subjects: \(reports.count)">
            <h1>Conformance matrix</h1>
            <p>\(e(reports.first?.suite ?? "")) — \(families.reduce(0) { $0 + $1.rows.count }) cases × \(reports.count) subject(s). \
            Click a case for its explanation, the text of its rules, and what each subject did.</p>

            """
        html += attention(families: families)
        html += subjectHeaders()
        html += legend()
        html += filters(families: families.map(\.name))
        html += "<div class=\"grid head\"><span>case</span><span>level</span>"
        for report in reports { html += "<span title=\"\(e(report.subject.name))\">\(e(report.subject.name))</span>" }
        html += "<span>title</span></div>\n"
        for family in families {
            html += "<section class=\"family\" data-family=\"\(e(family.name))\">\n"
            html += "<h2>\(e(family.name)) <small>(\(family.rows.count) cases)</small></h2>\n"
            for row in family.rows { html += caseRow(row) }
            html += "</section>\n"
        }
        html += "<script>\(Self.script)</script>\n</body></html>\n"
        return html
    }

    /// A subject's card: its name, summary, its own libraries, the suite, the date and the counts.
    private func subjectHeaders() -> String {
        var html = "<div class=\"subjects\">\n"
        for report in reports {
            html += "<div class=\"subject\"><h2>\(e(report.subject.name))</h2><p>\(e(report.subject.summary))</p><table>\n"
            let libraries = (report.subject.libraryVersions ?? [:]).sorted { $0.key < $1.key }
            if libraries.isEmpty { html += "<tr><td>libraries</td><td>not reported</td></tr>\n" }
            for (library, version) in libraries { html += "<tr><td>\(e(library))</td><td>\(e(version))</td></tr>\n" }
            html += "<tr><td>suite</td><td>\(e(report.suiteVersion)) (schema \(e(report.schemaVersion)))</td></tr>\n"
            html += "<tr><td>date</td><td>\(e(ISO8601DateFormatter().string(from: report.startedAt)))</td></tr>\n"
            html += "<tr><td>wall time</td><td>\(String(format: "%.1f", report.durationSeconds)) s</td></tr>\n"
            html += "<tr><td>cases</td><td>\(e(report.summary.description))</td></tr>\n</table>\n"
            let unsupported = report.subject.unsupportedFeatures.sorted { $0.key < $1.key }
            if !unsupported.isEmpty {
                // Folded: a long list would push the matrix below the fold.
                html += "<details><summary>\(unsupported.count) feature(s) declared unsupported (their cases are SKIP)</summary><ul>"
                for (feature, reason) in unsupported { html += "<li><code>\(e(feature))</code>: \(e(reason))</li>" }
                html += "</ul></details>\n"
            }
            html += "</div>\n"
        }
        return html + "</div>\n"
    }

    private func legend() -> String {
        let meanings: [(Verdict, String)] = [
            (.pass, "did what the spec says"), (.fail, "did something else"), (.skip, "feature declared unsupported"),
            (.error, "the harness failed"), (.hang, "never completed"), (.flaky, "verdicts differed across --repeat runs"),
            (.crash, "trapped or died"),
        ]
        var html = "<div class=\"legend\"><b>Legend</b>"
        for (verdict, meaning) in meanings {
            html += "<span><span class=\"v v-\(verdict.rawValue)\">\(verdict.rawValue)</span> \(meaning)</span>"
        }
        return html + "<span><span class=\"v v-none\">—</span> not in that subject's report</span></div>\n"
    }

    private func filters(families: [String]) -> String {
        var html = "<form class=\"filters\">"
        html += "<label>a subject's verdict <select id=\"f-verdict\"><option value=\"\">any</option>"
        for verdict in Verdict.known { html += "<option>\(verdict.rawValue)</option>" }
        html += "</select></label><label>family <select id=\"f-family\"><option value=\"\">all</option>"
        for family in families { html += "<option>\(e(family))</option>" }
        html += "</select></label><label>level <select id=\"f-level\"><option value=\"\">all</option>"
        html += "<option>MUST</option><option>SHOULD</option></select></label>"
        html += "<label><input type=\"checkbox\" id=\"f-differs\"> differs between subjects</label>"
        return html + "<span id=\"shown\"></span></form>\n"
    }

    private func caseRow(_ row: Row) -> String {
        let first = row.first
        var html =
            "<details class=\"case\" id=\"case-\(e(row.id))\" data-family=\"\(e(row.family))\" data-level=\"\(e(first.level.rawValue))\" "
            + "data-verdicts=\"\(e(row.verdicts.joined(separator: " ")))\" data-differs=\"\(row.differs ? "1" : "0")\">\n"
        html += "<summary class=\"grid\"><span class=\"id\">\(e(row.id))</span><span>\(e(first.level.rawValue))</span>"
        for (index, result) in row.results.enumerated() {
            html += verdictCell(result, subject: reports[index].subject.name, index: index, matrixCell: row.id)
        }
        html += "<span class=\"title\">\(e(first.title))</span></summary>\n"
        return html + detailPanel(row) + "</details>\n"
    }

    /// A coloured verdict, or a dashed blank where the subject's report lacks the case. A cell of the matrix
    /// (`matrixCell`: its case ID) is marked as one, so that a reader of the DOM can tell it from the verdicts
    /// the panels repeat.
    func verdictCell(_ result: CaseResult?, subject: String, index: Int, matrixCell: String? = nil) -> String {
        let marks = matrixCell.map { " cell\" data-case=\"\(e($0))" } ?? ""
        guard let result else {
            return "<span class=\"v v-none\(marks)\" data-subject=\"\(index)\" title=\"\(e(subject)): not in this report\">—</span>"
        }
        let verdict = e(result.verdict.rawValue)
        let tip = e("\(subject): \(result.verdict.rawValue)" + (result.reason.map { " — \(Self.bounded($0))" } ?? ""))
        return "<span class=\"v v-\(verdict)\(marks)\" data-subject=\"\(index)\" title=\"\(tip)\">\(verdict)</span>"
    }

    /// Shorthand for ``HTMLEscaping/escape(_:)``: every string a report carries goes through it.
    func e(_ text: String) -> String { HTMLEscaping.escape(text) }
}
