/// The result of one case: its identity, verdict, both sides and the evidence.
public struct CaseResult: Sendable, Codable, Hashable {

    /// What the case expected, as reports show it.
    public struct Expected: Sendable, Codable, Hashable {
        /// The outcome (unstated fields are not compared).
        public var outcome: Outcome
        /// The journal expectation.
        public var journal: JournalExpectation
        /// The further checks, described.
        public var checks: [String]

        /// Creates the expected side.
        public init(outcome: Outcome, journal: JournalExpectation, checks: [String]) {
            self.outcome = outcome
            self.journal = journal
            self.checks = checks
        }
    }

    /// The stable case ID.
    public var id: String
    /// What the case checks.
    public var title: String
    /// The rules of `docs/spec` the case checks.
    public var rules: [String]
    /// MUST or SHOULD.
    public var level: ConformanceLevel
    /// The verdict.
    public var verdict: Verdict
    /// Why it is not PASS: the skip reason, the harness error, the hang stage, or the first mismatch.
    public var reason: String?
    /// Every difference between expected and actual.
    public var mismatches: [String]
    /// The expected side.
    public var expected: Expected
    /// The actual outcome, if the fetch completed.
    public var actual: Outcome?
    /// How many times the completion ran.
    public var completions: Int
    /// The server's connection journal.
    public var journal: [JournalEntry]
    /// The case's wall time, in milliseconds.
    public var durationMilliseconds: Double
    /// Each run's verdict, in order, when the case was run more than once (`--repeat`); `nil` otherwise.
    public var repeatVerdicts: [Verdict]?
    /// What the case does and why it expects what it expects (the case's explanation); absent in reports of
    /// schema versions before 2.4.0.
    public var explanation: String?

    /// Creates a result (the runner does; tests and tools may build their own).
    public init(
        id: String, title: String, rules: [String], level: ConformanceLevel, verdict: Verdict, reason: String?,
        mismatches: [String], expected: Expected, actual: Outcome?, completions: Int, journal: [JournalEntry],
        durationMilliseconds: Double, explanation: String? = nil
    ) {
        self.id = id
        self.title = title
        self.rules = rules
        self.level = level
        self.verdict = verdict
        self.reason = reason
        self.mismatches = mismatches
        self.expected = expected
        self.actual = actual
        self.completions = completions
        self.journal = journal
        self.durationMilliseconds = durationMilliseconds
        self.explanation = explanation
    }
}
