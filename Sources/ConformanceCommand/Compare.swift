import ArgumentParser
import Conformance
import Foundation

/// `conformance compare A.json B.json`: the cases that newly fail in B.
struct Compare: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Compare two JSON reports: list new failures, fixes and other changes.")

    @Argument(help: "The baseline JSON report.")
    var baseline: String

    @Argument(help: "The new JSON report.")
    var current: String

    func run() throws {
        let before = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: baseline)))
        let after = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: current)))
        let comparison = ReportComparison(baseline: before, current: after)
        print(comparison.text, terminator: "")
        if !comparison.newFailures.isEmpty { throw ExitCode(1) }
    }
}
