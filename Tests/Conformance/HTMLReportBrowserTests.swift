import Conformance
import Foundation
import Reference
import Synchronization
import TestTraits
import Testing
import ReferenceConformance

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

/// Debian's `chromium`, which `Scripts/bootstrap` installs; `nil` when it is not on the `PATH`.
private func chromium() -> String? {
    let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":")
    return directories.map { "\($0)/chromium" }.first { FileManager.default.isExecutableFile(atPath: $0) }
}

/// Runs a program with its standard output in a file, killed after `timeout` seconds; returns its status, or `nil`
/// on timeout. It waits without blocking a thread: the test runs among async tests that share a pool of two.
private func run(_ executable: String, _ arguments: [String], output: URL, timeout: Double) async throws -> Int32? {
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let process = Process()
    process.executableURL = URL(fileURLWithPath: executable)
    process.arguments = arguments
    // A file, not a pipe: the dumped DOM is megabytes, more than a pipe holds while nobody reads it.
    process.standardOutput = try FileHandle(forWritingTo: output)
    process.standardError = FileHandle.nullDevice
    let timedOut = Atomic<Bool>(false)
    let status: Int32 = try await withCheckedThrowingContinuation { continuation in
        process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
        do { try process.run() } catch {
            continuation.resume(throwing: error)
            return
        }
        DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
            guard process.isRunning else { return }
            timedOut.store(true, ordering: .relaxed)
            process.terminate()
        }
    }
    return timedOut.load(ordering: .relaxed) ? nil : status
}

/// A rule's Markdown as a browser's DOM holds the text the page drew from it: no backticks, a link's text without
/// its target, and `&`, `<` and `>` as the serialiser escapes them in text.
private func plain(_ markdown: String) -> String {
    markdown.replacing(#/\[([^\]]+)\]\([^)\s]+\)/#) { String($0.output.1) }.replacing("`", with: "")
        .replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
}

// Serialized: one Chromium at a time is enough load for a 2-core machine that runs the other suites beside it.
@Suite("The HTML report as a browser shows it", .serialized, .scaledTimeLimit(minutes: 3), .blocking)
struct HTMLReportBrowserTests {

    /// Renders the two reports with `conformance report --html`, opens the page in headless Chromium with `query`
    /// after its URL, and returns the DOM once its script has run; `nil`, with an issue, when there is no chromium.
    private func renderedDOM(_ reference: SuiteReport, _ derived: SuiteReport, query: String) async throws -> String? {
        guard let browser = chromium() else {
            Issue.record("chromium is missing: Scripts/bootstrap installs it (apt-get install chromium)")
            return nil
        }
        let directory = try DerivedReport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let page = directory.appendingPathComponent("report.html")
        let status = ConformanceCommandLine.run(
            arguments: [
                "report", "--html", page.path, "--spec", repository.appendingPathComponent("docs/spec").path,
                try DerivedReport.write(reference, in: directory, name: "reference.json"),
                try DerivedReport.write(derived, in: directory, name: "derived.json"),
            ],
            subjects: [("reference", ReferenceSubject())])
        #expect(status == 0)
        let dump = directory.appendingPathComponent("dom.html")
        let exit = try await run(
            browser,
            [
                "--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=\(directory.appendingPathComponent("profile").path)",
                "--dump-dom", page.absoluteString + query,
            ],
            output: dump, timeout: 120)
        #expect(exit == 0, "chromium exited with \(exit.map { "\($0)" } ?? "nothing: killed after 120 s")")
        return try String(contentsOf: dump, encoding: .utf8)
    }

    @Test("headless Chromium renders two subjects: a cell per case and subject, rule text in the details, its script runs")
    func rendersInChromium() async throws {
        let reference = try await ReferenceRun.report.value
        let derived = DerivedReport.make(from: reference)
        guard let dom = try await renderedDOM(reference, derived, query: "") else { return }

        // A cell per case and subject, the derived report's missing case a blank one.
        let cell = #/<span class="v v-([A-Za-z]+) cell" data-case="([^"]+)" data-subject="(\d)"/#
        let cells = dom.matches(of: cell).map { "\($0.output.2) \($0.output.3) \($0.output.1)" }
        #expect(Set(cells).count == cells.count)
        #expect(
            Set(cells.map { $0.split(separator: " ").prefix(2).joined(separator: " ") })
                == Set(reference.cases.flatMap { ["\($0.id) 0", "\($0.id) 1"] }))
        #expect(cells.contains("\(reference.cases[2].id) 1 none"))
        #expect(cells.contains("\(reference.cases[3].id) 1 FAIL"))

        // A detail with the rule's text: the first case's first rule, quoted in full.
        let rules = try RuleBook.load(directory: repository.appendingPathComponent("docs/spec"))
        let rule = try #require(rules.first { $0.id == reference.cases[0].rules[0] })
        let shown = dom.matches(of: #/<p class="rule-text">(.*?)</p>/#).map { String($0.output.1).replacing(#/<[^>]+>/#, with: "") }
        #expect(shown.contains(plain(rule.text.components(separatedBy: "\n\n")[0])))

        // The page opens on what went wrong: the summary comes before the subjects and the matrix, and lists every
        // case that did not pass for some subject, MUST first, each linked to its row.
        let attention = try #require(dom.range(of: "<section id=\"attention\">"))
        #expect(attention.lowerBound < (dom.range(of: "<div class=\"subjects\">")?.lowerBound ?? dom.startIndex))
        let derivedVerdicts = Dictionary(derived.cases.map { ($0.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        let notPassing = reference.cases.filter { result in
            [result.verdict, derivedVerdicts[result.id] ?? .pass].contains { ![.pass, .skip].contains($0) }
        }
        let summary = dom[attention.lowerBound...]
        let section = summary[..<(summary.range(of: "</section>")?.upperBound ?? summary.endIndex)]
        let listed = section.matches(of: #/<a class="id" href="#case-([^"]+)">/#).map { String($0.output.1) }
        #expect(Set(listed) == Set(notPassing.map(\.id)))
        #expect(listed.count == notPassing.count)
        let levels = Dictionary(reference.cases.map { ($0.id, $0.level) }, uniquingKeysWith: { first, _ in first })
        #expect(listed.map { levels[$0] } == listed.map { levels[$0] }.sorted { $0 == .must && $1 != .must }, "MUST cases come first")
        #expect(listed.allSatisfy { dom.contains("<details class=\"case\" id=\"case-\($0)\"") })

        // The script ran (it counts the rows), and it is the only one: the injected one is text.
        #expect(dom.contains("\(reference.cases.count) of \(reference.cases.count) cases shown"))
        #expect(dom.components(separatedBy: "<script").count == 2)
        #expect(!dom.contains("pwned</title>"))
    }

    @Test("the filters run in Chromium: ?family=body&level=MUST&differs=1 hides every other row and every emptied family")
    func filtersInChromium() async throws {
        // The first 200 cases (three families) are enough to filter, and keep the browser's work small.
        let full = try await ReferenceRun.report.value
        let reference = SuiteReport(
            subject: full.subject, environment: full.environment, startedAt: full.startedAt, durationSeconds: full.durationSeconds,
            cases: Array(full.cases.prefix(200)))
        let derived = DerivedReport.make(from: reference)
        guard let dom = try await renderedDOM(reference, derived, query: "?family=body&level=MUST&differs=1") else { return }

        // What should show: the body family's MUST cases whose verdicts differ (changed in the derived report, or missing from it).
        let derivedVerdicts = Dictionary(derived.cases.map { ($0.id, $0.verdict) }, uniquingKeysWith: { first, _ in first })
        let expected = Set(
            reference.cases.filter { $0.id.hasPrefix("body.") && $0.level == .must && derivedVerdicts[$0.id] != $0.verdict }.map(\.id))
        #expect(!expected.isEmpty)
        let row = #/<details class="case" id="case-([^"]+)"[^>]*?( hidden="")?>/#
        let rows = dom.matches(of: row).map { (id: String($0.output.1), hidden: $0.output.2 != nil) }
        #expect(rows.count == reference.cases.count)
        #expect(Set(rows.filter { !$0.hidden }.map(\.id)) == expected)
        #expect(dom.contains("\(expected.count) of \(reference.cases.count) cases shown"))
        // A family none of whose cases show is hidden as a whole.
        let sections = dom.matches(of: #/<section class="family" data-family="([^"]+)"( hidden="")?>/#)
        #expect(sections.count > 1)
        #expect(sections.allSatisfy { ($0.output.1 == "body") == ($0.output.2 == nil) })
    }
}
