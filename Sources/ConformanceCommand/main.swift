import ArgumentParser
import Conformance
import Foundation

/// The `conformance` command: runs the suite against a subject, or compares two JSON reports.
@main
struct ConformanceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "conformance",
        abstract: "Checks a NetworkStack against the spec, case by case.",
        discussion: """
            Runs every conformance case (stable IDs such as retry.max-retries.3.failures-4) against a subject, \
            each on its own in-process HTTP(S) MockServer, and prints a verdict per case: PASS, FAIL (with \
            expected and actual), SKIP (the subject declared the feature unsupported), ERROR (the harness \
            failed) or HANG (the per-case watchdog fired).

            Options of `run` (the default subcommand; `conformance help run` for details):
              --list                 list the cases (ID, level, rules, title)
              --filter GLOB[,GLOB]   run only matching case IDs (* and ?)
              --rule ID[,ID]         run only the cases that check these rules of docs/spec
              --subject NAME         reference (default) or foundation
              --format FORMAT        text (default), json, junit or markdown
              --output FILE          write the report to FILE
              --jobs N, --watchdog SECONDS, --quiet

            The exit status is 1 when any MUST case is FAIL, ERROR or HANG, 0 otherwise (SHOULD failures are \
            reported, not fatal); 64 for a usage error. `conformance compare A.json B.json` lists the cases that \
            fail in B but not in A, and exits 1 if there is any. `conformance coverage --output docs/spec/coverage.md` \
            regenerates the map from the rules of docs/spec to the cases that check them.
            """,
        subcommands: [Run.self, Compare.self, Coverage.self],
        defaultSubcommand: Run.self)
}
