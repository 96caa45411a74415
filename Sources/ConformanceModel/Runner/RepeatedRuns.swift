/// How `--repeat N` runs: each case N times in a row in one list, then each case's runs made one result.
package enum RepeatedRuns {

    /// Each case `repeats` times in a row.
    package static func expand(_ cases: [ConformanceCase], repeats: Int) -> [ConformanceCase] {
        cases.flatMap { Array(repeating: $0, count: repeats) }
    }

    /// The report of a run of ``expand(_:repeats:)``'s list, with each case's runs made one result.
    package static func combine(_ runs: SuiteReport, repeats: Int) -> SuiteReport {
        guard repeats > 1 else { return runs }
        let combined = stride(from: 0, to: runs.cases.count, by: repeats).map { start in
            combine(Array(runs.cases[start..<min(start + repeats, runs.cases.count)]))
        }
        return SuiteReport(
            subject: runs.subject, environment: runs.environment, startedAt: runs.startedAt, durationSeconds: runs.durationSeconds,
            cases: combined)
    }

    /// One result from the runs of one case: their common verdict, or FLAKY with the evidence of the first run
    /// that differs from the first.
    static func combine(_ runs: [CaseResult]) -> CaseResult {
        let verdicts = runs.map(\.verdict)
        guard var result = runs.first(where: { $0.verdict != verdicts[0] }) ?? runs.last else { fatalError("a case ran zero times") }
        if Set(verdicts).count > 1 {
            result.verdict = .flaky
            result.reason =
                "verdicts across \(runs.count) runs: \(verdicts.map(\.rawValue).joined(separator: ", "))"
                + (result.reason.map { "; first differing run: \($0)" } ?? "")
        }
        result.repeatVerdicts = verdicts
        result.durationMilliseconds = runs.map(\.durationMilliseconds).max() ?? result.durationMilliseconds
        return result
    }
}
