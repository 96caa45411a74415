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

    @Option(
        help: ArgumentHelp(
            "The subject: \(CommandContext.names.subjects.joined(separator: " or ")) (default: \(CommandContext.names.subjects.first ?? "none")).",
            valueName: "name"),
        completion: .list(CommandContext.names.subjects))
    var subject: String?

    @OptionGroup var options: ConformanceOptions

    /// `--list`, which came before the `list` subcommand: kept so that scripts keep working.
    @Flag(help: ArgumentHelp("The same as the list subcommand.", visibility: .hidden))
    var list = false

    func validate() throws {
        if let subject, !CommandContext.names.subjects.contains(subject) {
            throw ValidationError("no subject \(subject); known: \(CommandContext.names.subjects.joined(separator: ", "))")
        }
    }

    func execute(_ context: CommandContext) throws -> Int32 {
        if list {
            guard let format = ListCommand.Format(rawValue: options.format.rawValue) else {
                throw CommandFailure(.usage, "--list prints text or json, not \(options.format.rawValue)")
            }
            return try ListCommand.print(options.selection, format: format)
        }
        let name = subject ?? context.subjects.first?.0 ?? ""
        guard let chosen = context.subjects.first(where: { $0.0 == name })?.1 else {
            throw CommandFailure(.usage, "no subject \(name); known: \(context.subjects.map(\.0).joined(separator: ", "))")
        }
        return try options.execute(chosen, workerArguments: context.workerArguments)
    }
}
