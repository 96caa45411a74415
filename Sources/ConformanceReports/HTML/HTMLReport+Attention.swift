import ConformanceModel

extension HTMLReport {

    /// What the page opens on: each subject's counts per verdict, then every case that did not pass for some subject,
    /// MUST cases first, each linked to its row; a reader sees what went wrong before the matrix of green rows.
    func attention(families: [(name: String, rows: [Row])]) -> String {
        var html = "<section id=\"attention\"><h2>Summary</h2>\n<table class=\"counts\"><tr><th>subject</th>"
        for verdict in Verdict.known { html += "<th><span class=\"v v-\(verdict.rawValue)\">\(verdict.rawValue)</span></th>" }
        html += "<th>MUST failures</th></tr>\n"
        for report in reports {
            html += "<tr><td>\(e(report.subject.name))</td>"
            for verdict in Verdict.known { html += "<td>\(report.cases.filter { $0.verdict == verdict }.count)</td>" }
            html += "<td>\(report.summary.mustFailures)</td></tr>\n"
        }
        html += "</table>\n"
        for report in reports {
            for hint in EnvironmentHint.hints(for: report) {
                html += "<p class=\"hint\"><b>Hint for \(e(report.subject.name))</b>: \(e(hint.text))</p>\n"
            }
        }
        let failing = families.flatMap(\.rows).filter { row in
            row.results.contains { result in result.map { ![.pass, .skip].contains($0.verdict) } ?? false }
        }
        guard !failing.isEmpty else {
            return html + "<p class=\"all-passed\">Every case passed, or was skipped, for every subject.</p></section>\n"
        }
        let ordered = failing.filter { $0.first.level == .must } + failing.filter { $0.first.level != .must }
        html += "<h3>\(ordered.count) case(s) that did not pass, MUST first</h3>\n<div class=\"failing\">"
        for row in ordered {
            html +=
                "<div class=\"grid\"><a class=\"id\" href=\"#case-\(e(row.id))\">\(e(row.id))</a><span>\(e(row.first.level.rawValue))</span>"
            for (index, result) in row.results.enumerated() {
                html += verdictCell(result, subject: reports[index].subject.name, index: index)
            }
            html += "<span class=\"title\">\(e(row.first.title))</span></div>\n"
        }
        return html + "</div></section>\n"
    }
}
