import ArgumentParser
import ConformanceCatalogue
import ConformanceModel
import ConformanceReports
import Foundation

/// `conformance report --html OUT.html A.json [B.json …]`: the matrix of ``HTMLReport``, written only once it is whole.
struct ReportCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Draws the JSON reports of one or more subjects as one self-contained HTML page.",
        discussion: """
            The page is a matrix of cases × subjects with filters, and a detail per case: its explanation, the text \
            of its rules from --spec, and what each subject did. Reports of different suite versions are refused \
            unless --allow-mixed.

            Exit status: 0; 64 for a usage error, 65 for a report it cannot use (another schema major version, not a \
            report), 66 for a missing report, 73 for an output it cannot create, 74 for a write that failed. Nothing \
            is written on an error.
            """)

    @Option(help: ArgumentHelp("The page to write.", valueName: "out.html"), completion: .file(extensions: ["html"]))
    var html: String

    @Flag(help: "Draw reports of different suite versions together.")
    var allowMixed = false

    @Option(
        help: ArgumentHelp("The folder of the spec's rule files, for the rules' text (default docs/spec).", valueName: "dir"),
        completion: .directory)
    var spec: String?

    @Argument(
        help: ArgumentHelp("JSON reports (run --format json), one column each.", valueName: "report.json"),
        completion: .file(extensions: ["json"]))
    var reports: [String] = []

    func validate() throws {
        guard !reports.isEmpty else {
            throw ValidationError("report needs at least one JSON report: report --html OUT.html A.json [B.json …]")
        }
    }

    func execute(_ context: CommandContext) throws -> Int32 {
        let destination = try OutputFile(checking: html)
        let loaded = try reports.map(ReportFile.load)
        let versions = Set(loaded.map(\.suiteVersion))
        if versions.count > 1 && !allowMixed {
            let each = zip(reports, loaded).map { "\($0) is \($1.suiteVersion)" }.joined(separator: ", ")
            throw CommandFailure(.data, "the reports are of different suite versions (\(each)); --allow-mixed draws them together")
        }
        let specFolder = spec ?? "docs/spec"
        var rules: [SpecRule] = []
        if spec != nil || FileManager.default.fileExists(atPath: specFolder) {
            rules = try RuleBook.loadForCommand(specFolder)
        } else {
            // A third party's command run outside this repository has no docs/spec: the page names the rules without their text.
            FileHandle.standardError.write(Data("warning: no docs/spec here (--spec DIR), so the page has no rule text\n".utf8))
        }
        let page = HTMLReport(
            reports: loaded, rules: rules, explanations: HTMLReport.explanations(of: loaded, else: Catalogue.all),
            specLink: ConformanceCommandLine.relativePath(
                from: URL(fileURLWithPath: html).deletingLastPathComponent(), to: URL(fileURLWithPath: specFolder)) + "/"
        ).render()
        try destination.write(page)
        let cases = Set(loaded.flatMap { $0.cases.map(\.id) }).count
        FileHandle.standardError.write(Data("report: \(cases) cases × \(loaded.count) subject(s) written to \(html)\n".utf8))
        return 0
    }
}

extension ConformanceCommandLine {
    /// `../spec` from `docs/conformance` to `docs/spec`: rule links that work wherever the page and the spec are.
    static func relativePath(from directory: URL, to target: URL) -> String {
        let from = directory.standardizedFileURL.pathComponents
        let to = target.standardizedFileURL.pathComponents
        let common = zip(from, to).prefix { $0 == $1 }.count
        let path = Array(repeating: "..", count: from.count - common) + to.dropFirst(common)
        return path.isEmpty ? "." : path.joined(separator: "/")
    }
}
