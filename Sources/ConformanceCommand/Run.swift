import ArgumentParser
import Conformance
import Foundation
import FoundationSubject

/// `conformance run` (the default): runs the suite and writes the report.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the suite (the default command).")

    enum SubjectName: String, ExpressibleByArgument, CaseIterable {
        case reference, foundation
    }

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, json, junit, markdown
    }

    @Flag(name: .long, help: "List the cases (ID, level, rules, title) and exit.")
    var list = false

    @Option(name: .long, help: "Run only the cases whose ID matches this glob (* and ?); several globs separated by commas.")
    var filter: String?

    @Option(name: .long, help: "Run only the cases that check one of these rules of docs/spec (IDs separated by commas, e.g. PIN-7,TRUST-3).")
    var rule: String?

    @Option(name: .long, help: "The implementation under test: reference (libcurl + OpenSSL) or foundation (URLSession).")
    var subject: SubjectName = .reference

    @Option(name: .long, help: "The report format: text (a summary, progress on stderr), json, junit or markdown.")
    var format: Format = .text

    @Option(name: .long, help: "Write the report to this file instead of standard output.")
    var output: String?

    @Option(name: .long, help: "Cases run at once.")
    var jobs: Int = 6

    @Option(name: .long, help: "Seconds before a case whose fetch never completes is HANG.")
    var watchdog: Double = 10

    @Flag(name: .long, help: "Do not print progress lines on standard error.")
    var quiet = false

    func run() throws {
        var cases = Catalogue.all
        if let filter { cases = Catalogue.filter(cases, glob: filter) }
        if let rule {
            cases = Catalogue.filter(cases, rules: Set(rule.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }))
        }
        if list {
            for testCase in cases {
                print("\(testCase.id)\t\(testCase.level.rawValue)\t\(testCase.rules.joined(separator: ","))\t\(testCase.title)")
            }
            print("\(cases.count) cases")
            return
        }
        guard !cases.isEmpty else { throw ValidationError("no case matches --filter \(filter ?? "*") --rule \(rule ?? "any")") }
        let report: SuiteReport
        switch subject {
        case .reference: report = try execute(ReferenceSubject(), cases)
        case .foundation: report = try execute(FoundationURLSessionSubject(), cases)
        }
        let text: String
        switch format {
        case .text: text = TextReport.render(report)
        case .json: text = String(decoding: try JSONReport.encode(report), as: UTF8.self) + "\n"
        case .junit: text = JUnitReport.render(report)
        case .markdown: text = MarkdownReport.render(report)
        }
        if let output {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
            FileHandle.standardError.write(Data((TextReport.summaryLine(report) + " — report written to \(output)\n").utf8))
        } else {
            print(text, terminator: "")
        }
        if !report.passed { throw ExitCode(1) }
    }

    private func execute<S: ConformanceSubject>(_ subject: S, _ cases: [ConformanceCase]) throws -> SuiteReport {
        let runner = try ConformanceRunner(subject: subject, concurrency: jobs, watchdog: watchdog)
        let quiet = self.quiet
        return runner.run(cases) { result, done, total in
            guard !quiet else { return }
            FileHandle.standardError.write(Data((TextReport.progressLine(result, done: done, total: total) + "\n").utf8))
        }
    }
}
