import ArgumentParser
import ConformanceReports

/// `conformance compare BASELINE.json CURRENT.json`: what changed between two runs (``ReportComparison``).
struct CompareCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "compare",
        abstract: "Lists new failures, passes now skipped, fixes and other changes between two JSON reports.",
        discussion: """
            Exit status: 1 when a case fails in CURRENT but not in BASELINE, or passed there and is skipped now; 0 \
            otherwise; 65 for a file that is not a report this build reads, 66 for a missing one.
            """)

    @Argument(
        help: ArgumentHelp("The earlier JSON report (run --format json).", valueName: "baseline.json"),
        completion: .file(extensions: ["json"]))
    var baseline: String

    @Argument(help: ArgumentHelp("The later JSON report.", valueName: "current.json"), completion: .file(extensions: ["json"]))
    var current: String

    func execute(_ context: CommandContext) throws -> Int32 {
        let comparison = ReportComparison(baseline: try ReportFile.load(baseline), current: try ReportFile.load(current))
        print(comparison.text, terminator: "")
        return comparison.regressed ? 1 : 0
    }
}
