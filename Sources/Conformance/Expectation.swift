/// What a case expects: the outcome, the server journal and further checks.
public struct Expectation: Sendable {
    /// The fetch's outcome; unstated fields are not compared.
    public var outcome: Outcome
    /// What the connection journal must show.
    public var journal: JournalExpectation
    /// Further checks.
    public var checks: [Check]

    /// Creates an expectation.
    public init(_ outcome: Outcome, journal: JournalExpectation = .any, checks: [Check] = []) {
        self.outcome = outcome
        self.journal = journal
        self.checks = checks
    }
}
