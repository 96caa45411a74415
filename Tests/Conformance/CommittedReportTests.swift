import Conformance
import Foundation
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// The case IDs of a committed Markdown report, from its "All cases" table, and its suite line.
private func committedReport(_ name: String) throws -> (suite: String, summary: String, ids: [String]) {
    let text = try String(contentsOf: repository.appendingPathComponent("docs/conformance/\(name).md"), encoding: .utf8)
    let lines = text.split(separator: "\n")
    let suite = lines.first { $0.hasPrefix("| suite |") }.map(String.init) ?? ""
    let summary = lines.first { $0.hasPrefix("| cases |") }.map(String.init) ?? ""
    let ids = lines.compactMap { line -> String? in
        guard line.hasPrefix("| `"), let end = line.dropFirst(3).firstIndex(of: "`") else { return nil }
        return String(line[line.index(line.startIndex, offsetBy: 3)..<end])
    }
    return (suite, summary, ids)
}

/// Committed reports and the suite version cannot drift from the catalogue: regenerate with `Scripts/reports`, and
/// bump `SuiteReport.suiteVersion` (recording its fingerprint) whenever cases are added, removed or renamed.
@Suite("Committed reports and the suite version follow the catalogue")
struct CommittedReportTests {
    private var catalogueIDs: [String] { Catalogue.all.map(\.id) }

    @Test(
        "each committed report has exactly the catalogue's cases, under the current suite and schema versions",
        arguments: [("reference", "Scripts/reports"), ("foundation", "Scripts/reports"), ("nio", "NIOStack/Scripts/report")])
    func committedReportMatchesTheCatalogue(name: String, script: String) throws {
        let report = try committedReport(name)

        #expect(
            report.suite.contains("conformance \(SuiteReport.suiteVersion) (schema \(SuiteReport.schemaVersion))"),
            "docs/conformance/\(name).md says \(report.suite): regenerate it with \(script)")
        // A report lists a case again in its sections of failures and skips: compare the sets, and the count separately.
        #expect(Set(report.ids) == Set(catalogueIDs), "docs/conformance/\(name).md lists other cases: regenerate it with \(script)")
        #expect(
            report.summary.hasPrefix("| cases | \(catalogueIDs.count) cases:"),
            "docs/conformance/\(name).md counts other cases: regenerate it with \(script)")
    }

    @Test("the catalogue's cases changed only with a suite version bump")
    func casesChangeOnlyWithABump() throws {
        let file = repository.appendingPathComponent("docs/conformance/suite-versions.txt")
        let recorded = try String(contentsOf: file, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") }.map { $0.split(separator: " ").map(String.init) }
        let fingerprint = SHA256.hex(Array(catalogueIDs.sorted().joined(separator: "\n").utf8))
        let line = "\(SuiteReport.suiteVersion) \(fingerprint)"

        let current = try #require(
            recorded.first { $0.first == SuiteReport.suiteVersion },
            "suite \(SuiteReport.suiteVersion) has no fingerprint: add the line '\(line)' to docs/conformance/suite-versions.txt")
        #expect(
            current.last == fingerprint,
            "the cases changed since suite \(SuiteReport.suiteVersion) was recorded: bump SuiteReport.suiteVersion, then add '\(SuiteReport.suiteVersion.description) …' with the new fingerprint"
        )
        #expect(
            recorded.filter { $0.last == fingerprint }.count == 1,
            "another suite version already recorded this catalogue: a bump without a change")
    }
}
