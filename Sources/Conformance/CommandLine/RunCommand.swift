import ArgumentParser

/// `conformance run`, the default subcommand: the chosen cases against one of the command's subjects.
struct RunCommand: ConformanceSubcommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "run",
            abstract: "Runs the cases against a subject and reports a verdict per case (the default subcommand).",
            discussion: """
                Verdicts: PASS, FAIL, SKIP (a feature the subject declared unsupported), ERROR (the harness failed), \
                HANG (the watchdog fired), FLAKY (verdicts differed across --repeat runs) or CRASH (the subject \
                trapped, died of a signal or completed a fetch twice). The cases run in worker processes (this \
                program again), so a subject that crashes costs one case a CRASH, not the run its report.

                Exit status: 1 when a MUST case is FAIL, ERROR, HANG, FLAKY or CRASH (with --fail-on should, any \
                case), 0 otherwise; 64 for a usage error, 66 for missing fixtures, 73 for an --output that cannot be \
                created (checked before any case runs), 74 for a write that failed.
                """)
    }

    @OptionGroup var subject: SubjectChoice

    @OptionGroup var options: ConformanceOptions

    /// `--list`, which came before the `list` subcommand: kept so that scripts keep working.
    @Flag(help: ArgumentHelp("The same as the list subcommand.", visibility: .hidden))
    var list = false

    func execute(_ context: CommandContext) throws -> Int32 {
        if list {
            guard let format = ListCommand.Format(rawValue: options.format.rawValue) else {
                throw CommandFailure(.usage, "--list prints text or json, not \(options.format.rawValue)")
            }
            return try ListCommand.print(options.selection, format: format)
        }
        return try options.execute(try subject.chosen(context), workerArguments: context.workerArguments)
    }
}
