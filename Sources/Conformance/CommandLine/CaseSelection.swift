import ArgumentParser
import ConformanceCatalogue
import ConformanceModel
import Foundation

/// Which cases of the catalogue a command takes: `--filter` and `--rule`, each repeatable, each a comma list, and
/// every occurrence adding to the others.
struct CaseSelection: ParsableArguments {

    @Option(
        help: ArgumentHelp(
            "Only the cases whose ID matches a pattern (* and ?); repeat it or give a comma list.", valueName: "glob"))
    var filter: [String] = []

    @Option(
        help: ArgumentHelp(
            "Only the cases that check one of these rules of docs/spec (PIN-7); repeat it or give a comma list.", valueName: "id"))
    var rule: [String] = []

    /// The chosen cases of the catalogue, in its order: all of them when neither option is given.
    func cases(of catalogue: [ConformanceCase]) -> [ConformanceCase] {
        var cases = catalogue
        if !filter.isEmpty { cases = Catalogue.filter(cases, glob: filter.joined(separator: ",")) }
        if !rule.isEmpty {
            let rules = rule.flatMap { $0.split(separator: ",") }.map { $0.trimmingCharacters(in: .whitespaces) }
            cases = Catalogue.filter(cases, rules: Set(rules))
        }
        return cases
    }

    /// The selection as the options spell it, for a message about it.
    var spelling: String {
        "--filter \(filter.isEmpty ? "*" : filter.joined(separator: ",")) --rule \(rule.isEmpty ? "any" : rule.joined(separator: ","))"
    }
}
