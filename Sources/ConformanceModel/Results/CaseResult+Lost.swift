extension CaseResult {
    /// The result of a case whose worker process ended before the case did: CRASH (or HANG for a stuck worker),
    /// with nothing observed.
    package static func lost(_ testCase: ConformanceCase, verdict: Verdict, reason: String, durationMilliseconds: Double) -> CaseResult {
        CaseResult(
            id: testCase.id, title: testCase.title, rules: testCase.rules, level: testCase.level, verdict: verdict, reason: reason,
            mismatches: [],
            expected: .init(
                outcome: testCase.expected.outcome, journal: testCase.expected.journal, checks: testCase.expected.reportedChecks),
            actual: nil, completions: 0, journal: [], durationMilliseconds: durationMilliseconds, explanation: testCase.explanation)
    }
}
