import Conformance
import Foundation

/// A second subject for the HTML report's tests, derived from the reference run rather than run: every seventh
/// case FAIL, one FLAKY with repeat verdicts, one missing, and hostile text (`<script>`) in the fields a subject
/// or a server controls.
enum DerivedReport {
    static let injected = "<script>document.title='pwned'</script>"

    static func make(from reference: SuiteReport) -> SuiteReport {
        var cases = reference.cases
        for index in cases.indices where index % 7 == 3 {
            cases[index].verdict = .fail
            cases[index].reason = "expected one thing, got another"
            cases[index].mismatches = ["kind: expected success, got url"]
        }
        cases[1].verdict = .flaky
        cases[1].repeatVerdicts = [.pass, .fail, .pass]
        // Hostile text where a subject's reason and a server's journal put their own words.
        cases[0].reason = injected
        if let connection = cases.firstIndex(where: { !$0.journal.isEmpty }) { cases[connection].journal[0].fault = injected }
        cases.remove(at: 2)
        var derived = SuiteReport(
            subject: .init(
                name: "derived", summary: "the reference run with some verdicts changed \(injected)", unsupportedFeatures: [:],
                libraryVersions: ["derived-lib": "9.9.9"]),
            environment: reference.environment, startedAt: reference.startedAt, durationSeconds: 1, cases: cases)
        derived.suiteVersion = reference.suiteVersion
        return derived
    }

    /// Writes a report as JSON to a fresh temporary file and returns its path.
    static func write(_ report: SuiteReport, in directory: URL, name: String) throws -> String {
        let path = directory.appendingPathComponent(name).path
        try JSONReport.encode(report).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("html-report-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}
