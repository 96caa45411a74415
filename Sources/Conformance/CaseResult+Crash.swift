extension CaseResult {
    /// The result of a case whose subject took its process down: CRASH, with nothing observed.
    static func crashed(_ testCase: ConformanceCase, reason: String, durationMilliseconds: Double) -> CaseResult {
        CaseResult(
            id: testCase.id, title: testCase.title, rules: testCase.rules, level: testCase.level, verdict: .crash, reason: reason,
            mismatches: [],
            expected: .init(
                outcome: testCase.expected.outcome, journal: testCase.expected.journal, checks: testCase.expected.checks.map(\.description)),
            actual: nil, completions: 0, journal: [], durationMilliseconds: durationMilliseconds)
    }
}
