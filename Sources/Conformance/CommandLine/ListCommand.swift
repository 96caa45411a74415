import ArgumentParser
import ConformanceCatalogue
import ConformanceModel
import ConformanceReports
import Foundation

/// `conformance list`: the chosen cases with their ID, level, rules, required features and title, as text or JSON.
struct ListCommand: ConformanceSubcommand {
    static let configuration = CommandConfiguration(
        commandName: "list",
        abstract: "Lists the cases: ID, level, rules, the features a subject needs for them, title.",
        discussion: """
            Text is one tab-separated line per case on standard output (a case that needs no feature shows -), and the \
            count on standard error. JSON is \
            an object with suiteVersion and cases, each with id, level, rules, requiredFeatures and title.
            """)

    /// How the list is printed.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case text, json
    }

    @OptionGroup var selection: CaseSelection

    @Option(help: "How to print the list.")
    var format: Format = .text

    func execute(_ context: CommandContext) throws -> Int32 {
        try Self.print(selection, format: format)
    }

    /// Prints the chosen cases; returns 0.
    static func print(_ selection: CaseSelection, format: Format) throws -> Int32 {
        // Without the fixtures the trust and pinning cases are missing: the list would be wrong, not short.
        _ = try FixtureCatalogue.locate()
        let cases = selection.cases(of: Catalogue.all)
        switch format {
        case .text:
            Swift.print(CaseList.render(cases), terminator: "")
            FileHandle.standardError.write(Data("\(cases.count) cases\n".utf8))
        case .json: Swift.print(String(decoding: try CaseList.json(cases), as: UTF8.self))
        }
        return 0
    }
}
