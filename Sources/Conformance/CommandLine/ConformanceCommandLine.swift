import ArgumentParser
import ConformanceModel
import Foundation

/// The `conformance` command as a library, so that the suite runs against any subject from an executable of
/// its own, with every subcommand and option of the project's command:
///
/// ```swift
/// // Sources/MyConformance/main.swift
/// import Conformance
/// import MyStackConformance    // where MySubject lives
///
/// ConformanceCommandLine.main(subject: MySubject())
/// ```
///
/// `swift run my-conformance --filter 'pin.*' --repeat 3 --format json --output report.json`, `… list --format
/// json`, `… compare a.json b.json`, `… coverage --output coverage.md`, `… version`; `--help` lists everything, and
/// `… run --help` the options of a run. A command that needs options of its own embeds ``ConformanceOptions``
/// instead.
///
/// Exit status: 0; 1 when a run fails its gate (a failed MUST case, or any with `--fail-on should`) or `compare`
/// finds a new failure or a pass now skipped; the sysexits(3) numbers otherwise: 64 for a usage error, 65 for an
/// input it cannot use (a file that is not a report), 66 for a missing input, 73 for an output it cannot create, 74
/// for a read or write that failed. Each error is one line on standard error (a usage error then shows the usage),
/// and nothing is written.
public enum ConformanceCommandLine {

    /// Runs the command for one subject with the process's arguments, then exits with its status.
    ///
    /// The cases run in a worker process — this executable again — so that a subject that traps or dies of a
    /// signal gets `Verdict.crash` for the case that did it and every other case its own verdict
    /// (`--no-isolation` runs them in this process instead).
    public static func main(subject: some ConformanceSubject) -> Never {
        main(subjects: [(subject.name, subject)])
    }

    /// Runs the command with the process's arguments, `--subject NAME` choosing among `subjects` (the first
    /// by default), then exits with its status. Cases run in worker processes, as with ``main(subject:)``.
    public static func main(subjects: [(String, any ConformanceSubject)]) -> Never {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let name = CommandLine.arguments.first.map { URL(fileURLWithPath: $0).lastPathComponent } ?? "conformance"
        exit(run(arguments: arguments, subjects: subjects, commandName: name, workerArguments: arguments))
    }

    /// Runs the command with these arguments (without the program name) and returns its exit status (see
    /// ``ConformanceCommandLine``).
    ///
    /// The cases run in the calling process, as with `--no-isolation`: only ``main(subject:)`` and
    /// ``main(subjects:)``, which own their process, start worker processes of it.
    public static func run(arguments: [String], subjects: [(String, any ConformanceSubject)]) -> Int32 {
        run(arguments: arguments, subjects: subjects, commandName: "conformance", workerArguments: nil)
    }

    static func run(
        arguments: [String], subjects: [(String, any ConformanceSubject)], commandName: String, workerArguments: [String]?
    ) -> Int32 {
        CommandContext.$names.withValue(.init(command: commandName, subjects: subjects.map(\.0))) {
            let context = CommandContext(subjects: subjects, workerArguments: workerArguments)
            let subcommand: any ConformanceSubcommand
            do {
                var command = try ConformanceRootCommand.parseAsRoot(arguments)
                guard let ours = command as? any ConformanceSubcommand else {
                    // argument-parser's own commands (`help`, `--help`): their run throws what they ask for.
                    try command.run()
                    return 0
                }
                subcommand = ours
            } catch {
                return answer(error)
            }
            do {
                return try subcommand.execute(context)
            } catch let error where error is ValidationError || error is CleanExit || error is ExitCode {
                return answer(error)
            } catch {
                let failure = CommandFailure(error)
                FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
                return failure.status.rawValue
            }
        }
    }

    /// Prints what argument-parser makes of a parse's outcome (help, the version, a completion script, a usage
    /// error with the usage) and returns its status.
    private static func answer(_ error: any Error) -> Int32 {
        let status = ConformanceRootCommand.exitCode(for: error)
        let text = ConformanceRootCommand.fullMessage(for: error)
        if status == .success {
            if !text.isEmpty { print(text) }
        } else if !text.isEmpty {
            FileHandle.standardError.write(Data((text + "\n").utf8))
        }
        return status.rawValue
    }
}
