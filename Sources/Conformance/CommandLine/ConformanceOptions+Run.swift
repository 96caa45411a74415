import ArgumentParser
import ConformanceCatalogue
import ConformanceModel
import ConformanceReports
import Foundation

extension ConformanceOptions {

    /// Runs the chosen cases against `subject`, writes the report as the options say, and returns; throws
    /// `ExitCode(1)` when the run fails its gate (a failed MUST case, or any with `--fail-on should`).
    ///
    /// The cases run in worker processes, as in `conformance run`: this executable again, with the same arguments
    /// and a hidden flag of its own, so a subject that traps costs one case a `Verdict.crash` and not
    /// the run its report. Build the subject from the command's arguments alone, then, so that every worker builds
    /// the same one; and in a test, where the process is the test runner, set ``noIsolation``.
    ///
    /// - Parameter subject: the implementation under test.
    /// - Throws: `ExitCode`, after a one-line message on standard error: 64 for a selection no case matches,
    ///   66 for missing fixtures, 73 for an `--output` that cannot be created (checked before
    ///   any case runs), 74 for a write that failed; 1, after the report, for a run that fails its gate.
    public func run(subject: some ConformanceSubject) throws {
        let status: Int32
        do {
            status = try execute(subject, workerArguments: Array(CommandLine.arguments.dropFirst()))
        } catch {
            let failure = CommandFailure(error)
            FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
            throw ExitCode(failure.status.rawValue)
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Runs the cases and returns the exit status: 0, or 1 when the run fails its gate. `workerArguments` are the
    /// arguments that make this executable build the same subject again, for a worker process; `nil` runs the
    /// cases in this process.
    func execute(_ subject: some ConformanceSubject, workerArguments: [String]?) throws -> Int32 {
        if isWorker { return try ConformanceWorker.run(subject, jobs: jobs, watchdog: watchdog) }
        // Everything that can fail is checked before the first case: a long run must not end without its report.
        let destination = try output.map(OutputFile.init(checking:))
        // Missing fixtures are a problem of the run, reported once, not a verdict per case.
        _ = try FixtureCatalogue.locate()
        let cases = selection.cases(of: Catalogue.all)
        guard !cases.isEmpty else { throw CommandFailure(.usage, "no case matches \(selection.spelling)") }
        let (progress, finishProgress) = progressReporter(total: cases.count * repeats)
        // Cleared however the run ends: a thrown error's message must not land on the progress line.
        var progressFinished = false
        defer { if !progressFinished { finishProgress() } }
        let report: SuiteReport
        if let workerArguments, !noIsolation {
            report = try executeIsolated(subject, cases, workerArguments: workerArguments, progress: progress)
        } else {
            report = try ConformanceRunner(subject: subject, concurrency: jobs, watchdog: watchdog).run(
                cases, repeats: repeats, progress: progress)
        }
        finishProgress()
        progressFinished = true
        let style = TerminalStyle(colored: destination == nil && color.colors(descriptor: STDOUT_FILENO))
        let text = try format.render(report, failingOn: failOn, style: style, showSkips: showSkips)
        if let destination {
            try destination.write(text)
            FileHandle.standardError.write(Data((TextReport.summaryLine(report) + " — report written to \(destination.path)\n").utf8))
        } else {
            print(text, terminator: "")
        }
        return report.passes(failingOn: failOn) ? 0 : 1
    }

    /// What is said on standard error as cases end: nothing with `--quiet`; on a terminal, one line of counts
    /// rewritten in place (`LiveProgress`); otherwise, or with `--verbose`, a line per case.
    /// Also returns what ends it: the live line is cleared, whatever count it reached.
    private func progressReporter(total: Int) -> (report: @Sendable (CaseResult, Int, Int) -> Void, finish: () -> Void) {
        if quiet { return ({ _, _, _ in }, {}) }
        let style = TerminalStyle(colored: color.colors(descriptor: STDERR_FILENO))
        if !verbose, isatty(STDERR_FILENO) == 1 {
            let live = LiveProgress(total: total, style: style)
            return ({ result, _, _ in live.record(result.verdict) }, { live.clear() })
        }
        let lines: @Sendable (CaseResult, Int, Int) -> Void = { result, done, total in
            FileHandle.standardError.write(Data((TextReport.progressLine(result, done: done, total: total, style: style) + "\n").utf8))
        }
        return (lines, {})
    }

    /// Runs the cases in worker processes of this executable (``IsolatedRun``) and reports as the runner would.
    private func executeIsolated(
        _ subject: some ConformanceSubject, _ cases: [ConformanceCase], workerArguments: [String],
        progress: @escaping @Sendable (CaseResult, Int, Int) -> Void
    ) throws -> SuiteReport {
        // A worker that dies before reading its case list must not kill the parent as it writes the list.
        signal(SIGPIPE, SIG_IGN)
        // The worker parses the same arguments, so it builds the same subject; the watchdog is repeated because a
        // command may have set it after parsing (the last occurrence of an option wins), and the worker's own
        // `--jobs` follows from WorkerProcess.
        let worker = WorkerProcess(
            executable: try WorkerProcess.currentExecutable(),
            arguments: workerArguments + ["--\(ConformanceWorker.flag)", "--watchdog", "\(watchdog)"],
            silenceLimit: Int(watchdog * 3) + 10)
        let startedAt = Date()
        let clock = ContinuousClock.now
        let runs = IsolatedRun(worker: worker, jobs: jobs).run(RepeatedRuns.expand(cases, repeats: repeats), progress: progress)
        let report = SuiteReport(
            subject: .init(subject), startedAt: startedAt, durationSeconds: (ContinuousClock.now - clock).inSeconds, cases: runs)
        return RepeatedRuns.combine(report, repeats: repeats)
    }
}
