import ConformanceModel
import Foundation
import NetworkCore
import Synchronization

/// The command line's crash isolation: runs cases in worker processes (``WorkerProcess``) so that a subject
/// that traps or dies of a signal costs one case its verdict — CRASH — and not the whole run its report.
///
/// A batch worker runs the cases `jobs` at once. When it dies, the cases it finished keep their results; each
/// case it had started but not finished runs again alone, in a fresh worker, and is CRASH only if it takes that
/// worker down too (otherwise it gets its own verdict: it was running beside the culprit, or a late callback of
/// an earlier case was); the cases it had not started go on in a new batch worker. After
/// ``maximumBatchDeaths`` deaths every remaining case runs alone, `jobs` workers at once, so that a subject that
/// crashes on every case costs one short process per case rather than a restart per case and a re-run per case.
struct IsolatedRun: Sendable {
    let worker: WorkerProcess
    let jobs: Int
    /// Batch worker deaths before the remaining cases run one per worker.
    var maximumBatchDeaths = 5

    /// Runs the cases (a case may appear more than once, for `--repeat`) and returns one result per entry, in
    /// order; `progress` is called after each, serialized, with the result, the number done and the total.
    func run(_ cases: [ConformanceCase], progress: @escaping @Sendable (CaseResult, Int, Int) -> Void) -> [CaseResult] {
        let results = Locked<[Int: CaseResult]>([:])
        let record: @Sendable (Int, CaseResult) -> Void = { index, result in
            results.withLock { results in
                results[index] = result
                progress(result, results.count, cases.count)
            }
        }
        var pending = Array(cases.indices)
        var deaths = 0
        while !pending.isEmpty && deaths < maximumBatchDeaths {
            let batch = pending
            let run = worker.run(batch.map { cases[$0].id }, jobs: jobs) { record(batch[$0], $1) }
            pending = batch.indices.filter { !run.started.contains($0) }.map { batch[$0] }
            let unfinished = run.started.subtracting(run.finished).sorted().map { batch[$0] }
            guard !run.termination.isClean || !unfinished.isEmpty || !pending.isEmpty else { break }
            deaths += 1
            let names = unfinished.map { cases[$0].id }.joined(separator: ", ")
            let rerun = unfinished.isEmpty ? "" : "; running \(unfinished.count == 1 ? "it" : "them") alone"
            FileHandle.standardError.write(
                Data(
                    "conformance: the subject's process \(run.termination.description) while running \(names.isEmpty ? "no case" : names)\(rerun)\n"
                        .utf8))
            runAlone(unfinished, of: cases, record: record)
        }
        runAlone(pending, of: cases, record: record)
        return results.withLock { results in
            cases.indices.map {
                results[$0] ?? .lost(cases[$0], verdict: .error, reason: "no result came back from the worker", durationMilliseconds: 0)
            }
        }
    }

    /// Runs each case in a worker of its own, `jobs` workers at once; a case whose worker dies is CRASH (HANG
    /// if the worker was stuck).
    private func runAlone(_ indices: [Int], of cases: [ConformanceCase], record: @escaping @Sendable (Int, CaseResult) -> Void) {
        guard !indices.isEmpty else { return }
        let next = Atomic<Int>(0)
        let group = DispatchGroup()
        let worker = self.worker
        for _ in 0..<min(jobs, indices.count) {
            group.enter()
            Thread {
                defer { group.leave() }
                while true {
                    let position = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard position < indices.count else { return }
                    let index = indices[position]
                    let started = ContinuousClock.now
                    let run = worker.run([cases[index].id], jobs: 1) { _, result in record(index, result) }
                    guard !run.finished.contains(0) else { continue }
                    let elapsed = ContinuousClock.now - started
                    record(
                        index,
                        .lost(
                            cases[index], verdict: run.termination.verdict,
                            reason: run.termination.reason(lastErrorLines: run.lastErrorLines),
                            durationMilliseconds: elapsed.inMilliseconds)
                    )
                }
            }.start()
        }
        group.wait()
    }
}
