import ConformanceModel
import Foundation
import NetworkCore

extension HTMLReport {

    /// A case's panel: title and explanation, the full text of every rule it cites (linked to `docs/spec`), then
    /// for each subject expected vs observed, the mismatches, the repeat verdicts and the server's journal.
    func detailPanel(_ row: Row) -> String {
        let first = row.first
        var html = "<div class=\"panel\"><h3>\(e(first.title))</h3>\n"
        if let explanation = explanations[row.id] {
            html += "<p class=\"explanation\">\(e(explanation))</p>\n"
        } else {
            html +=
                "<p class=\"missing\">No explanation: the catalogue of the build that rendered this page has no case \(e(row.id)).</p>\n"
        }
        html += "<h4>Rules</h4>\n"
        for id in first.rules {
            guard let rule = rules[id] else {
                html +=
                    "<div class=\"rule\"><b>\(e(id))</b> <span class=\"missing\">not in the rule book this page was rendered with</span></div>\n"
                continue
            }
            let link = specLink + rule.file + "#" + rule.id.lowercased()
            html += "<div class=\"rule\"><a href=\"\(e(link))\"><b>\(e(rule.id))</b></a> (\(e(rule.level.rawValue)))"
            for paragraph in rule.text.components(separatedBy: "\n\n") {
                html += "<p class=\"rule-text\">\(ruleParagraph(paragraph, ruleFile: rule.file))</p>"
            }
            html += "</div>\n"
        }
        for (index, result) in row.results.enumerated() {
            html += subjectDetail(result, subject: reports[index].subject.name, index: index)
        }
        return html + "</div>\n"
    }

    private func subjectDetail(_ result: CaseResult?, subject: String, index: Int) -> String {
        var html = "<h4>\(e(subject)) \(verdictCell(result, subject: subject, index: index))</h4>\n"
        guard let result else { return html + "<p>This case is not in \(e(subject))'s report.</p>\n" }
        html += "<div class=\"observed\">"
        func field(_ name: String, _ value: String) { html += "<b>\(e(name))</b><div>\(value)</div>" }
        if let reason = result.reason { field("reason", e(Self.bounded(reason))) }
        field("expected", "<code>\(e(result.expected.outcome.description))</code>")
        field("observed", result.actual.map { "<code>\(e(Self.bounded($0.description)))</code>" } ?? "no completion")
        if result.completions != 1 { field("completions", "\(result.completions)") }
        if !result.mismatches.isEmpty {
            field("mismatches", "<ul>" + result.mismatches.map { "<li>\(e(Self.bounded($0)))</li>" }.joined() + "</ul>")
        }
        field("expected journal", "<code>\(e(Self.compactJSON(result.expected.journal)))</code>")
        if !result.expected.checks.isEmpty {
            field("expected checks", "<ul>" + result.expected.checks.map { "<li>\(e($0))</li>" }.joined() + "</ul>")
        }
        if let repeats = result.repeatVerdicts {
            field("repeat verdicts", repeats.map { verdictCell(stub(result, $0), subject: subject, index: index) }.joined(separator: " "))
        }
        field("journal", result.journal.isEmpty ? "no connection" : journalTable(result.journal))
        field("duration", "\(Int(result.durationMilliseconds)) ms")
        return html + "</div>\n"
    }

    /// The server's journal as a table: a row per connection, a column per field any connection has (in the order
    /// they first appear, the index first), so that connections compare at a glance.
    private func journalTable(_ journal: [JournalEntry]) -> String {
        let rows: [[String: JournalCell]] = journal.map { entry in
            (try? JSONDecoder().decode([String: JournalCell].self, from: Data(Self.compactJSON(entry).utf8))) ?? [:]
        }
        var columns: [String] = ["index"]
        for row in rows { for key in row.keys.sorted() where !columns.contains(key) { columns.append(key) } }
        var html = "<table class=\"journal\"><tr>" + columns.map { "<th>\(e($0))</th>" }.joined() + "</tr>"
        for row in rows {
            html += "<tr>" + columns.map { "<td>\(e(row[$0]?.text ?? ""))</td>" }.joined() + "</tr>"
        }
        return html + "</table>"
    }

    /// What a subject or a server wrote, cut to 600 characters: a 100 KiB reason phrase must not fill the page.
    static func bounded(_ text: String) -> String { DisplayText.bounded(text, limit: 600) }

    /// The result with another verdict and no reason, to draw one repeat's verdict as a cell.
    private func stub(_ result: CaseResult, _ verdict: Verdict) -> CaseResult {
        var copy = result
        copy.verdict = verdict
        copy.reason = nil
        return copy
    }

    /// One line of JSON with sorted keys: every field of a journal entry or expectation, as the JSON report has it.
    static func compactJSON(_ value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\(value)"
    }
}

/// One field of a journal entry as a cell shows it: text as it is, a number, yes or no, a list joined by commas,
/// anything else as its JSON.
private struct JournalCell: Decodable {
    let text: String

    init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let flag = try? container.decode(Bool.self) {
            text = flag ? "yes" : "no"
        } else if let number = try? container.decode(Int.self) {
            text = String(number)
        } else if let number = try? container.decode(Double.self) {
            text = String(number)
        } else if let string = try? container.decode(String.self) {
            text = string
        } else if let list = try? container.decode([JournalCell].self) {
            text = list.map(\.text).joined(separator: ", ")
        } else if let object = try? container.decode([String: JournalCell].self) {
            text = object.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value.text)" }.joined(separator: "; ")
        } else {
            text = ""
        }
    }
}
