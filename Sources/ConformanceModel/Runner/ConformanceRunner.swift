import Dispatch
import Foundation
import NetworkCore
import Synchronization

/// Runs conformance cases against a subject, in parallel, each on its own server, and reports as it goes.
///
/// ```swift
/// let runner = try ConformanceRunner(subject: ReferenceSubject())
/// let report = runner.run(Catalogue.all) { result, done, total in print("\(done)/\(total) \(result.id)") }
/// print(report.summary)
/// ```
///
/// Cases run on the runner's own threads, not on Swift's cooperative pool, because they block on the
/// server and on completions; a case whose fetch never completes is HANG after ``watchdog`` seconds and
/// the run goes on (the stuck fetch is abandoned).
///
/// The runner runs in the calling process: a subject that traps takes the process with it. The command line
/// (`ConformanceCommandLine.main(subject:)`) runs the cases in a worker process instead, and turns a trap into
/// a ``Verdict/crash`` for the case that caused it.
public struct ConformanceRunner<Subject: ConformanceSubject>: Sendable {

    /// The implementation under test.
    public let subject: Subject
    /// The certificate catalogue.
    public let fixtures: FixtureCatalogue
    /// How many cases run at once.
    public var concurrency: Int
    /// Seconds before a case without completion is HANG; a case with shorter time limits of its own is HANG
    /// sooner (three times its shortest limit plus 2 s).
    public var watchdog: TimeInterval
    /// Seconds to wait for a second completion that must not come, in exactly-once cases.
    public var grace: TimeInterval

    /// Creates a runner.
    ///
    /// - Parameters:
    ///   - subject: the implementation under test.
    ///   - fixtures: the certificate catalogue; located with ``FixtureCatalogue/locate()`` by default.
    ///   - concurrency: cases at once (default 6: cases mostly wait on sockets and timers).
    ///   - watchdog: per-case limit in seconds (default 10), shortened for a case with time limits of its own.
    ///   - grace: seconds to wait, after a completion, for one that must not come (default 0.15).
    /// - Throws: ``FixturesNotFound`` when no catalogue is given and none is found; ``CatalogueIncomplete`` when
    ///   `Catalogue.all` was built without fixtures its families read (a run would silently judge fewer cases).
    public init(
        subject: Subject, fixtures: FixtureCatalogue? = nil, concurrency: Int = 6, watchdog: TimeInterval = 10, grace: TimeInterval = 0.15
    ) throws {
        guard CatalogueIncomplete.ofCatalogue.isEmpty else { throw CatalogueIncomplete(problems: CatalogueIncomplete.ofCatalogue) }
        self.subject = subject
        self.fixtures = try fixtures ?? FixtureCatalogue.locate()
        self.concurrency = max(1, concurrency)
        self.watchdog = watchdog
        self.grace = grace
    }

    /// Runs one case on the calling thread.
    public func run(_ testCase: ConformanceCase) -> CaseResult {
        CaseExecution(testCase: testCase, subject: subject, fixtures: fixtures, watchdog: watchdog, grace: grace).run()
    }

    /// Runs the cases and returns the report; `progress` is called after each case (from a worker thread,
    /// serialized) with the result, the number done and the total.
    ///
    /// With `repeats` above 1 every case runs that many times (the runs spread over the workers like any
    /// other), `progress` is called once per run, and a case whose verdicts differ is ``Verdict/flaky``.
    public func run(
        _ cases: [ConformanceCase], repeats: Int = 1,
        progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }
    ) -> SuiteReport {
        let repeats = max(1, repeats)
        guard repeats > 1 else { return runOnce(cases, progress: progress) }
        return RepeatedRuns.combine(runOnce(RepeatedRuns.expand(cases, repeats: repeats), progress: progress), repeats: repeats)
    }

    /// Runs each case once; `started` and `finished` are told the index of each case as it starts and ends
    /// (the command line's worker process reports them, so that a crash can be pinned on the cases that were
    /// running).
    package func runOnce(
        _ cases: [ConformanceCase], started: @escaping @Sendable (Int) -> Void = { _ in },
        finished: @escaping @Sendable (Int, CaseResult) -> Void = { _, _ in },
        progress: @escaping @Sendable (CaseResult, Int, Int) -> Void
    ) -> SuiteReport {
        let startedAt = Date()
        let clock = ContinuousClock.now
        let next = Atomic<Int>(0)
        let results = Locked<[Int: CaseResult]>([:])
        let group = DispatchGroup()
        let runner = self
        for worker in 0..<min(concurrency, max(1, cases.count)) {
            group.enter()
            let thread = Thread {
                defer { group.leave() }
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard index < cases.count else { return }
                    started(index)
                    let result = runner.run(cases[index])
                    finished(index, result)
                    let done = results.withLock { results -> Int in
                        results[index] = result
                        return results.count
                    }
                    progress(result, done, cases.count)
                }
            }
            thread.name = "conformance.worker.\(worker)"
            thread.stackSize = 1 << 20
            thread.start()
        }
        group.wait()
        let elapsed = ContinuousClock.now - clock
        let ordered = results.withLock { results in cases.indices.compactMap { results[$0] } }
        return SuiteReport(
            subject: .init(subject), startedAt: startedAt,
            durationSeconds: elapsed.inSeconds, cases: ordered)
    }

    /// Runs the cases without blocking the caller's task.
    public func run(
        _ cases: [ConformanceCase], repeats: Int = 1, progress: @escaping @Sendable (CaseResult, Int, Int) -> Void = { _, _, _ in }
    ) async -> SuiteReport {
        await withCheckedContinuation { continuation in
            let runner = self
            Thread { continuation.resume(returning: runner.run(cases, repeats: repeats, progress: progress)) }.start()
        }
    }
}

extension SuiteReport.SubjectInfo {
    /// The subject as it describes itself.
    package init(_ subject: some ConformanceSubject) {
        self.init(
            name: subject.name, summary: subject.summary,
            unsupportedFeatures: [String: String](uniqueKeysWithValues: subject.unsupportedFeatures.map { ($0.key.rawValue, $0.value) }),
            libraryVersions: subject.libraryVersions.isEmpty ? nil : subject.libraryVersions)
    }
}
