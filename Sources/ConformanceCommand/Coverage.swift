import ArgumentParser
import Conformance
import Foundation

/// `conformance coverage`: renders `docs/spec/coverage.md`, the map from rules to the cases that check them.
struct Coverage: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Write the map from the rules of docs/spec to the cases that check them.")

    @Option(name: .long, help: "The directory holding the rules.")
    var spec: String = "docs/spec"

    @Option(name: .long, help: "Write the map to this file instead of standard output.")
    var output: String?

    func run() throws {
        let rules = try RuleBook.load(directory: URL(fileURLWithPath: spec))
        guard !rules.isEmpty else { throw ValidationError("no rules in \(spec)") }
        // Without the fixtures the trust and pinning cases are missing, and the map would be wrong, not short.
        _ = try FixtureCatalogue.locate()
        let text = CoverageDocument.render(rules: rules, cases: Catalogue.all)
        if let output {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
        } else {
            print(text, terminator: "")
        }
    }
}
