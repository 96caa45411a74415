import ArgumentParser
import ConformanceModel

/// The `conformance` command: `run` (the default, so `conformance --filter X` runs), `list`, `compare`,
/// `coverage`, `report`, `convert`, `soak` and `version`, each with its own `--help`.
struct ConformanceRootCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandContext.names.command,
            abstract: "Checks a NetworkStack against the rules of docs/spec, case by case, each case on its own HTTP(S) server.",
            discussion: """
                Without a subcommand, runs the cases: `\(CommandContext.names.command) --filter 'retry.*'` is \
                `\(CommandContext.names.command) run --filter 'retry.*'`. `\(CommandContext.names.command) help SUBCOMMAND` \
                or `SUBCOMMAND --help` says what a subcommand takes; `--generate-completion-script bash|zsh|fish` \
                prints a completion script for the shell.

                Exit status: 0; 1 when a run fails its gate or `compare` finds a new failure or a pass now skipped; 64 \
                for a usage error, 65 for an input it cannot use, 66 for a missing input, 73 for an output it cannot create, 74 for a \
                read or write that failed. Nothing is written on an error.
                """,
            version: PinnedNetworkVersion.line,
            subcommands: [
                RunCommand.self, ListCommand.self, CompareCommand.self, CoverageCommand.self, ReportCommand.self, ConvertCommand.self,
                SoakCommand.self, VersionCommand.self,
            ],
            defaultSubcommand: RunCommand.self)
    }
}

/// A subcommand of ``ConformanceRootCommand``, run with what the command knows beyond its arguments.
protocol ConformanceSubcommand: ParsableCommand {
    /// Does the subcommand's work and returns the exit status; throws a ``CommandFailure`` (or anything
    /// ``CommandFailure/init(_:)`` sorts) when it cannot.
    func execute(_ context: CommandContext) throws -> Int32
}

/// What the command knows beyond its arguments.
struct CommandContext {
    /// The subjects `--subject` chooses among, the first by default.
    let subjects: [(String, any ConformanceSubject)]
    /// The arguments that make this executable the same command again, for a worker process; `nil` to run the
    /// cases in this process.
    let workerArguments: [String]?

    /// The names help and completion show, set while a command line is parsed and run: argument-parser builds its
    /// help from types, not from values, so the names it shows must be reachable from a type.
    struct Names: Sendable {
        /// The executable's name (`conformance`, or a third party's `my-conformance`).
        var command = "conformance"
        /// The subjects' names.
        var subjects: [String] = []
    }

    @TaskLocal static var names = Names()
}
