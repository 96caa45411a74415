import ArgumentParser
import ConformanceCatalogue
import ConformanceModel
import ConformanceReports
import Foundation

/// `conformance coverage`: which cases check each rule of the spec (``CoverageDocument``).
struct CoverageCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "coverage",
        abstract: "Maps every rule of docs/spec to the cases that check it, as Markdown.",
        discussion: """
            Exit status: 0; 65 for a rule file it cannot read as rules, 66 for a missing spec folder or fixtures, 73 \
            for an --output that cannot be created, 74 for a write that failed.
            """)

    @Option(help: ArgumentHelp("The folder of the spec's rule files.", valueName: "dir"), completion: .directory)
    var spec = "docs/spec"

    @Option(help: ArgumentHelp("Write the map to this file instead of standard output.", valueName: "file"), completion: .file())
    var output: String?

    func execute(_ context: CommandContext) throws -> Int32 {
        let destination = try output.map(OutputFile.init(checking:))
        let rules = try RuleBook.loadForCommand(spec)
        guard !rules.isEmpty else { throw CommandFailure(.noInput, "no rules in \(spec)") }
        // Without the fixtures the trust and pinning cases are missing, and the map would be wrong, not short.
        _ = try FixtureCatalogue.locate()
        let text = CoverageDocument.render(rules: rules, cases: Catalogue.all)
        if let destination { try destination.write(text) } else { print(text, terminator: "") }
        return 0
    }
}

extension RuleBook {
    /// The rules in `directory`, with the statuses of ``CommandFailure``: a rule file that does not read as rules is
    /// ``CommandFailure/Status/data``, a folder that cannot be read ``CommandFailure/Status/noInput``.
    static func loadForCommand(_ directory: String) throws -> [SpecRule] {
        do { return try load(directory: URL(fileURLWithPath: directory)) } catch let error as FormatError {
            throw CommandFailure(.data, error.description)
        } catch {
            throw CommandFailure(.noInput, "cannot read the rules in \(directory): \(CommandFailure.oneLine(error))")
        }
    }
}
