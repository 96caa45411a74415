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

    @Test(
        "every link of the committed reports and of coverage.md resolves: the file exists, and so does the anchor",
        arguments: [
            "docs/conformance/report.html", "docs/spec/coverage.md", "docs/conformance/foundation.md", "docs/conformance/reference.md",
            "docs/conformance/nio.md",
        ])
    func linksResolve(page: String) throws {
        let file = repository.appendingPathComponent(page)
        let text = try String(contentsOf: file, encoding: .utf8)
        let links =
            page.hasSuffix(".html")
            ? text.matches(of: #/href="([^"]+)"/#).map { String($0.output.1).replacingOccurrences(of: "&amp;", with: "&") }
            : text.matches(of: #/\]\(([^)\s]+)\)/#).map { String($0.output.1) }
        var broken: Set<String> = []
        for link in Set(links) where !link.hasPrefix("https://") {
            let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let target = parts[0].isEmpty ? file : file.deletingLastPathComponent().appendingPathComponent(parts[0]).standardizedFileURL
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: target.path, isDirectory: &isFolder), !isFolder.boolValue else {
                broken.insert(link)
                continue
            }
            guard parts.count == 2 else { continue }
            if !(try Self.anchors(of: target)).contains(parts[1]) { broken.insert(link) }
        }
        #expect(broken.isEmpty, "\(page) has \(broken.count) broken link(s): \(broken.sorted().prefix(10))")
    }

    /// The anchors a page has: the `id`s of an HTML page; a Markdown file's headings as GitHub names them (lower case,
    /// punctuation but `-` and `_` dropped, spaces as `-`).
    private static func anchors(of file: URL) throws -> Set<String> {
        let text = try String(contentsOf: file, encoding: .utf8)
        if file.pathExtension == "html" { return Set(text.matches(of: #/ id="([^"]+)"/#).map { String($0.output.1) }) }
        return Set(
            text.split(separator: "\n").filter { $0.hasPrefix("#") }.map { line in
                let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces).lowercased()
                return String(
                    title.filter { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == " " }.map { $0 == " " ? "-" : $0 })
            })
    }
}
