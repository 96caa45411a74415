import Foundation
import NetworkCore

/// The `conformance` command as a library, so that the suite runs against any subject from an executable of
/// its own, with every option of the project's command:
///
/// ```swift
/// // Sources/MyConformance/main.swift
/// import Conformance
/// import MyStackConformance    // where MySubject lives
///
/// ConformanceCommandLine.main(subject: MySubject())
/// ```
///
/// `swift run my-conformance --filter 'pin.*' --repeat 3 --format json --output report.json`, `… compare
/// a.json b.json`, `… coverage --output coverage.md`; `--help` lists everything.
public enum ConformanceCommandLine {

    /// Runs the command for one subject with the process's arguments, then exits with its status.
    ///
    /// The cases run in a worker process — this executable again — so that a subject that traps or dies of a
    /// signal gets ``Verdict/crash`` for the case that did it and every other case its own verdict
    /// (`--no-isolation` runs them in this process instead).
    public static func main(subject: some ConformanceSubject) -> Never {
        main(subjects: [(subject.name, subject)])
    }

    /// Runs the command with the process's arguments, `--subject NAME` choosing among `subjects` (the first
    /// by default), then exits with its status. Cases run in worker processes, as with ``main(subject:)``.
    public static func main(subjects: [(String, any ConformanceSubject)]) -> Never {
        exit(run(arguments: Array(CommandLine.arguments.dropFirst()), subjects: subjects, isolated: true))
    }

    /// Runs the command with these arguments (without the program name) and returns its exit status: 0, 1 when
    /// a MUST case fails (or `compare` finds a new failure), 64 for a usage error, 65 for a report it cannot use, 66
    /// for an unreadable input, 73 for an output `report` cannot create.
    ///
    /// The cases run in the calling process, as with `--no-isolation`: only ``main(subject:)`` and
    /// ``main(subjects:)``, which own their process, start worker processes of it.
    public static func run(arguments: [String], subjects: [(String, any ConformanceSubject)]) -> Int32 {
        run(arguments: arguments, subjects: subjects, isolated: false)
    }

    static func run(arguments: [String], subjects: [(String, any ConformanceSubject)], isolated: Bool) -> Int32 {
        var arguments = arguments
        let command = arguments.first.flatMap { ["run", "compare", "coverage", "report", "help"].contains($0) ? $0 : nil } ?? "run"
        if arguments.first == command { arguments.removeFirst() }
        do {
            var options = try Options(arguments)
            if command == "help" || options.flag("help") || options.flag("h") {
                print(help(subjects: subjects.map(\.0)))
                return 0
            }
            switch command {
            case "compare": return try compare(&options)
            case "coverage": return try coverage(&options)
            case "report": return try report(&options)
            default: return try runSuite(&options, subjects: subjects, isolated: isolated)
            }
        } catch let error as UsageError {
            FileHandle.standardError.write(Data("error: \(error.message)\nSee --help.\n".utf8))
            return 64
        } catch let failure as CommandFailure {
            FileHandle.standardError.write(Data("error: \(failure.message)\n".utf8))
            return failure.status
        } catch {
            FileHandle.standardError.write(Data("error: \(error)\n".utf8))
            return 66
        }
    }

    // MARK: Commands

    private static func runSuite(_ options: inout Options, subjects: [(String, any ConformanceSubject)], isolated: Bool) throws -> Int32 {
        let isWorker = options.flag(ConformanceWorker.flag)
        let isolated = isolated && !options.flag("no-isolation")
        let list = options.flag("list")
        let quiet = options.flag("quiet")
        let filter = options.value("filter")
        let rule = options.value("rule")
        let output = options.value("output")
        let subjectName = options.value("subject") ?? subjects.first?.0 ?? ""
        let format = options.value("format") ?? "text"
        let jobs = try options.integer("jobs") ?? 6
        let repeats = try options.integer("repeat") ?? 1
        let watchdog = try options.number("watchdog") ?? 10
        let failOnText = options.value("fail-on") ?? ConformanceLevel.must.flagValue
        try options.finish()
        guard let failOn = ConformanceLevel.allCases.first(where: { $0.flagValue == failOnText }) else {
            throw UsageError("--fail-on is must or should, not \(failOnText)")
        }
        guard ["text", "json", "junit", "markdown"].contains(format) else {
            throw UsageError("--format is text, json, junit or markdown, not \(format)")
        }
        guard repeats >= 1 else { throw UsageError("--repeat needs a count of at least 1") }
        guard let subject = subjects.first(where: { $0.0 == subjectName })?.1 else {
            throw UsageError("no subject \(subjectName); known: \(subjects.map(\.0).joined(separator: ", "))")
        }
        if isWorker { return try ConformanceWorker.run(subject, jobs: jobs, watchdog: watchdog) }
        var cases = Catalogue.all
        if let filter { cases = Catalogue.filter(cases, glob: filter) }
        if let rule {
            cases = Catalogue.filter(cases, rules: Set(rule.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }))
        }
        if list {
            print(CaseList.render(cases), terminator: "")
            return 0
        }
        guard !cases.isEmpty else { throw UsageError("no case matches --filter \(filter ?? "*") --rule \(rule ?? "any")") }
        let progress: @Sendable (CaseResult, Int, Int) -> Void = { result, done, total in
            guard !quiet else { return }
            FileHandle.standardError.write(Data((TextReport.progressLine(result, done: done, total: total) + "\n").utf8))
        }
        let report =
            isolated
            ? try executeIsolated(subject, subjectName, cases, jobs: jobs, watchdog: watchdog, repeats: repeats, progress: progress)
            : try executeInProcess(subject, cases, jobs: jobs, watchdog: watchdog, repeats: repeats, progress: progress)
        let text: String
        switch format {
        case "json": text = String(decoding: try JSONReport.encode(report), as: UTF8.self) + "\n"
        case "junit": text = JUnitReport.render(report)
        case "markdown": text = MarkdownReport.render(report)
        default: text = TextReport.render(report)
        }
        if let output {
            try text.write(toFile: output, atomically: true, encoding: .utf8)
            FileHandle.standardError.write(Data((TextReport.summaryLine(report) + " — report written to \(output)\n").utf8))
        } else {
            print(text, terminator: "")
        }
        return report.passes(failingOn: failOn) ? 0 : 1
    }

    private static func executeInProcess(
        _ subject: some ConformanceSubject, _ cases: [ConformanceCase], jobs: Int, watchdog: Double, repeats: Int,
        progress: @escaping @Sendable (CaseResult, Int, Int) -> Void
    ) throws -> SuiteReport {
        try ConformanceRunner(subject: subject, concurrency: jobs, watchdog: watchdog).run(cases, repeats: repeats, progress: progress)
    }

    /// Runs the cases in worker processes of this executable (``IsolatedRun``) and reports as the runner would.
    private static func executeIsolated(
        _ subject: some ConformanceSubject, _ name: String, _ cases: [ConformanceCase], jobs: Int, watchdog: Double, repeats: Int,
        progress: @escaping @Sendable (CaseResult, Int, Int) -> Void
    ) throws -> SuiteReport {
        // Missing fixtures are a usage problem of the run, reported once, not a verdict per case.
        _ = try FixtureCatalogue.locate()
        // A worker that dies before reading its case list must not kill the parent as it writes the list.
        signal(SIGPIPE, SIG_IGN)
        let worker = WorkerProcess(
            executable: try WorkerProcess.currentExecutable(),
            arguments: ["run", "--\(ConformanceWorker.flag)", "--subject", name, "--watchdog", "\(watchdog)"],
            silenceLimit: Int(watchdog * 3) + 10)
        let startedAt = Date()
        let clock = ContinuousClock.now
        let runs = IsolatedRun(worker: worker, jobs: max(1, jobs)).run(RepeatedRuns.expand(cases, repeats: repeats), progress: progress)
        let elapsed = ContinuousClock.now - clock
        let report = SuiteReport(
            subject: .init(subject), startedAt: startedAt,
            durationSeconds: elapsed.inSeconds, cases: runs)
        return RepeatedRuns.combine(report, repeats: repeats)
    }

    private static func compare(_ options: inout Options) throws -> Int32 {
        let files = options.positional
        options.positional = []
        try options.finish()
        guard files.count == 2 else { throw UsageError("compare needs two JSON reports: compare BASELINE.json CURRENT.json") }
        let before = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: files[0])))
        let after = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: files[1])))
        let comparison = ReportComparison(baseline: before, current: after)
        print(comparison.text, terminator: "")
        return comparison.regressed ? 1 : 0
    }

    private static func coverage(_ options: inout Options) throws -> Int32 {
        let spec = options.value("spec") ?? "docs/spec"
        let output = options.value("output")
        try options.finish()
        let rules = try RuleBook.load(directory: URL(fileURLWithPath: spec))
        guard !rules.isEmpty else { throw UsageError("no rules in \(spec)") }
        // Without the fixtures the trust and pinning cases are missing, and the map would be wrong, not short.
        _ = try FixtureCatalogue.locate()
        let text = CoverageDocument.render(rules: rules, cases: Catalogue.all)
        if let output { try text.write(toFile: output, atomically: true, encoding: .utf8) } else { print(text, terminator: "") }
        return 0
    }

    static func help(subjects: [String]) -> String {
        """
        USAGE: conformance [run] [options]
               conformance compare BASELINE.json CURRENT.json
               conformance coverage [--spec DIR] [--output FILE]
               conformance report --html OUT.html [--allow-mixed] [--spec DIR] A.json [B.json ...]

        Runs every conformance case against a subject, each on its own in-process HTTP(S) server, and reports a
        verdict per case: PASS, FAIL, SKIP (a feature the subject declared unsupported), ERROR (the harness
        failed), HANG (the watchdog fired), FLAKY (verdicts differed across --repeat runs) or CRASH (the subject
        trapped, died of a signal or completed a fetch twice).

        Cases run in a worker process (this program again): when the subject takes it down, the cases that were
        running are run again alone to find the one that did (CRASH, with the signal), and the run goes on.

        OPTIONS of run:
          --list                 list the cases (ID, level, rules, required features, title)
          --filter GLOB[,GLOB]   run only matching case IDs (* and ?)
          --rule ID[,ID]         run only the cases that check these rules of docs/spec
          --subject NAME         \(subjects.joined(separator: " or ")) (default \(subjects.first ?? "none"))
          --format FORMAT        text (default), json, junit or markdown
          --output FILE          write the report to FILE
          --repeat N             run each case N times; differing verdicts are FLAKY
          --jobs N               cases at once (default 6)
          --watchdog SECONDS     per-case limit before HANG (default 10; a case with shorter timeouts of its
                                 own gets a shorter limit)
          --no-isolation         run the cases in this process: a crash of the subject ends the run, no report
          --quiet                no progress lines on standard error
          --fail-on LEVEL        must (default): exit 1 only for a failed MUST case; should: for a failed
                                 SHOULD case too, so that a CI job can gate on every level

        The exit status is 1 when any MUST case is FAIL, ERROR, HANG, FLAKY or CRASH (with --fail-on should, any
        case), 0 otherwise (by default SHOULD failures are reported, not fatal); 64 for a usage error. compare lists the cases that fail in CURRENT but not in
        BASELINE and exits 1 if there is any.

        report draws the JSON reports of one or more subjects as one self-contained HTML page: a matrix of cases ×
        subjects with filters and a detail per case (its explanation, the text of its rules from --spec, default
        docs/spec, and what each subject did). Reports of different suite versions are refused unless
        --allow-mixed. Exit status: 64 usage, 65 a report it cannot use (another schema major version, not a
        report), 66 a missing report, 73 an output it cannot create; nothing is written on any error.
        """
    }

    // MARK: Parsing

    struct UsageError: Error {
        let message: String
        init(_ message: String) { self.message = message }
    }

    /// `--name value`, `--name=value` and `--flag`, then positional arguments; every option must be used.
    struct Options {
        private var values: [String: String] = [:]
        private var flags: Set<String> = []
        var positional: [String] = []
        private static let valued: Set<String> = [
            "filter", "rule", "subject", "format", "output", "jobs", "repeat", "watchdog", "spec", "fail-on", "html",
        ]

        init(_ arguments: [String]) throws {
            var index = 0
            while index < arguments.count {
                let argument = arguments[index]
                index += 1
                guard argument.hasPrefix("-"), argument.count > 1 else { positional.append(argument); continue }
                let body = String(argument.drop { $0 == "-" })
                if let equals = body.firstIndex(of: "=") {
                    values[String(body[..<equals])] = String(body[body.index(after: equals)...])
                } else if Self.valued.contains(body) {
                    guard index < arguments.count else { throw UsageError("--\(body) needs a value") }
                    values[body] = arguments[index]
                    index += 1
                } else {
                    flags.insert(body)
                }
            }
        }

        mutating func flag(_ name: String) -> Bool { flags.remove(name) != nil }
        mutating func value(_ name: String) -> String? { values.removeValue(forKey: name) }

        mutating func integer(_ name: String) throws -> Int? {
            guard let text = value(name) else { return nil }
            guard let number = Int(text) else { throw UsageError("--\(name) needs a whole number, not \(text)") }
            return number
        }

        mutating func number(_ name: String) throws -> Double? {
            guard let text = value(name) else { return nil }
            guard let number = Double(text) else { throw UsageError("--\(name) needs a number, not \(text)") }
            return number
        }

        /// Fails on anything left over: a misspelt option must not be ignored.
        func finish() throws {
            if let unknown = (flags.map { "--\($0)" } + values.keys.map { "--\($0)" }).sorted().first {
                throw UsageError("unknown option \(unknown)")
            }
            if let extra = positional.first { throw UsageError("unexpected argument \(extra)") }
        }
    }
}
