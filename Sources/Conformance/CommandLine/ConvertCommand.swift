import ArgumentParser
import Foundation

/// `conformance convert --format markdown report.json`: one run's JSON report in another format, so that a CI job
/// runs the suite once and writes the Markdown (or JUnit, or text) it shows people from the JSON it keeps.
struct ConvertCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Writes a JSON report in another format.",
        discussion: """
            The report is the one the run wrote: its cases, explanations, quoted rules and timings, unchanged.

            Exit status: 0; 64 for a usage error, 65 for a file that is not a report this build reads, 66 for a \
            missing report, 73 for an output it cannot create, 74 for a write that failed. Nothing is written on an \
            error.
            """)

    @Option(help: "text, json, junit or markdown.")
    var format: ReportFormat

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp("The run's gate, must or should: JUnit marks as failures only the cases that fail it.", valueName: "level"))
    var failOnLevel: FailOnLevel = .must

    @Option(help: ArgumentHelp("Write to this file instead of standard output.", valueName: "file"), completion: .file())
    var output: String?

    @Argument(help: ArgumentHelp("A JSON report (run --format json).", valueName: "report.json"), completion: .file(extensions: ["json"]))
    var report: String

    func execute(_ context: CommandContext) throws -> Int32 {
        let destination = try output.map(OutputFile.init(checking:))
        let text = try format.render(try ReportFile.load(report), failingOn: failOnLevel.level)
        if let destination { try destination.write(text) } else { print(text, terminator: "") }
        return 0
    }
}
