import ArgumentParser
import ConformanceModel
import ConformanceReports
import Foundation

/// The formats a run's report is written in: `--format` of `conformance run` and of ``ConformanceOptions``.
public enum ReportFormat: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// A verdict a line, a block for each case that did not pass, and the summary (`TextReport`).
    case text
    /// The versioned JSON report (`JSONReport`), the one `compare` and `report` read.
    case json
    /// JUnit XML, for CI (`JUnitReport`).
    case junit
    /// Markdown, for people (`MarkdownReport`).
    case markdown

    /// The report in this format, for a run whose gate is `failingOn` (JUnit marks as failures only what fails it).
    ///
    /// - Throws: an `EncodingError` when JSON cannot encode the report.
    /// The text form is drawn in `style` and lists the skipped cases with their reasons when `showSkips` is set.
    public func render(
        _ report: SuiteReport, failingOn gate: ConformanceLevel = .must, style: TerminalStyle = .plain, showSkips: Bool = false
    ) throws -> String {
        switch self {
        case .text: TextReport.render(report, style: style, showSkips: showSkips)
        case .json: String(decoding: try JSONReport.encode(report), as: UTF8.self) + "\n"
        case .junit: JUnitReport.render(report, failingOn: gate)
        case .markdown: MarkdownReport.render(report)
        }
    }
}
