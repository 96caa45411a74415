import ArgumentParser
import ConformanceModel
import Foundation

/// The options of a conformance run, for a command of your own: embed them with `@OptionGroup` beside options of
/// your own, and run the suite with ``run(subject:)``.
///
/// ```swift
/// import ArgumentParser
/// import Conformance
///
/// @main
/// struct MyConformance: ParsableCommand {
///     @Option(help: "The proxy MyStack goes through.") var proxy: String?
///     @OptionGroup(title: "Conformance options") var conformance: ConformanceOptions
///
///     func run() throws {
///         try conformance.run(subject: MySubject(proxy: proxy))
///     }
/// }
/// ```
///
/// `my-conformance --proxy http://127.0.0.1:3128 --filter 'retry.*' -j 4 --format json --output report.json`
/// then runs the chosen cases, with every option of `conformance run` but `--subject`, and its own.
///
/// The values are checked as they are parsed (``validate()``): `--jobs` and `--repeat` at least 1, `--watchdog`
/// more than 0 seconds, `--format` and `--fail-on` one of their values. A wrong one is a usage error (exit status
/// 64) before anything runs.
public struct ConformanceOptions: ParsableArguments {

    @OptionGroup var selection: CaseSelection

    /// The report's format: `text` (the default), `json`, `junit` or `markdown`.
    @Option(help: "The report's format.")
    public var format: ReportFormat = .text

    /// The file to write the report to, instead of standard output; its folder must exist.
    @Option(
        help: ArgumentHelp("Write the report to this file (its folder must exist) instead of standard output.", valueName: "file"),
        completion: .file())
    public var output: String?

    /// How many times each case runs (`--repeat`, 1 by default); a case whose runs disagree is `Verdict.flaky`.
    @Option(
        name: .customLong("repeat"), parsing: .unconditional,
        help: ArgumentHelp("Run each case N times; a case whose verdicts differ is FLAKY.", valueName: "n"))
    public var repeats: Int = 1

    /// How many cases run at once (`--jobs`, `-j`; 6 by default).
    @Option(name: [.short, .long], parsing: .unconditional, help: ArgumentHelp("How many cases run at once.", valueName: "n"))
    public var jobs: Int = 6

    /// Seconds a case may take before it is `Verdict.hang` (10 by default); a case with shorter time limits of its
    /// own gets a shorter watchdog.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Seconds a case may take before it is HANG, at most \(Int(Self.longestWatchdog)) (a case with shorter time limits of its own gets less).",
            valueName: "seconds"))
    public var watchdog: Double = 10

    @Option(
        name: .customLong("fail-on"),
        help: ArgumentHelp("must: exit 1 only for a failed MUST case; should: for a failed SHOULD case too.", valueName: "level"))
    var failOnLevel: FailOnLevel = .must

    /// Runs the cases in this process rather than in worker processes: a subject that traps then ends the run,
    /// without a report.
    @Flag(help: "Run the cases in this process: a crash of the subject ends the run, without a report.")
    public var noIsolation = false

    /// Prints no progress on standard error.
    @Flag(help: "Print no progress on standard error.")
    public var quiet = false

    /// Prints a line per case as it ends, even on a terminal (where one line of counts is rewritten in place).
    @Flag(help: "Print a line per case as it ends, even on a terminal (where one line of counts is rewritten instead).")
    public var verbose = false

    /// Lists the skipped cases with their reasons in the text report.
    @Flag(help: "List the skipped cases with their reasons in the text report.")
    public var showSkips = false

    /// Whether verdicts are coloured: `auto` (on a terminal, unless `NO_COLOR` is set), `always` or `never`.
    @Option(help: ArgumentHelp("Colour the verdicts: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "when"))
    public var color: ColorChoice = .auto

    /// Set in the worker processes that run the cases: this executable again, with the same arguments.
    @Flag(name: .customLong(ConformanceWorker.flag), help: .private)
    var isWorker = false

    /// The longest `--watchdog`: a case that needs more is not a case, and the worker's silence limit (three
    /// watchdogs) must stay a number of seconds.
    static let longestWatchdog = 3600.0

    /// Patterns of case IDs (`--filter`, `*` and `?`): a case runs when it matches any; empty for every case.
    public var filter: [String] {
        get { selection.filter }
        set { selection.filter = newValue }
    }

    /// Rule IDs of `docs/spec` (`--rule`): a case runs when it checks any; empty for every case.
    public var rule: [String] {
        get { selection.rule }
        set { selection.rule = newValue }
    }

    /// The lowest level whose failure fails the run (exit status 1; `--fail-on`): `ConformanceLevel.must` by
    /// default, `ConformanceLevel.should` to gate on every case.
    public var failOn: ConformanceLevel {
        get { failOnLevel.level }
        set { failOnLevel = FailOnLevel(newValue) }
    }

    /// The options' defaults: every case, text on standard output, six at once, a 10 s watchdog, in worker processes.
    public init() {}

    /// Refuses values no run can use, before anything runs: a usage error (exit status 64) naming the option.
    ///
    /// - Throws: `ValidationError` for `--jobs` or `--repeat` below 1, or `--watchdog` not above 0 seconds (or
    ///   above an hour).
    public func validate() throws {
        guard jobs >= 1 else { throw ValidationError("--jobs needs at least 1 case at once, not \(jobs)") }
        guard repeats >= 1 else { throw ValidationError("--repeat needs a count of at least 1, not \(repeats)") }
        guard watchdog > 0, watchdog <= Self.longestWatchdog else {
            throw ValidationError("--watchdog needs more than 0 and at most \(Int(Self.longestWatchdog)) seconds, not \(watchdog)")
        }
    }
}
