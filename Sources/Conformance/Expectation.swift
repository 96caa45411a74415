/// What a case expects: the outcome, the server journal and further checks.
package struct Expectation: Sendable {
    /// The fetch's outcome; unstated fields are not compared.
    package var outcome: Outcome
    /// What the connection journal must show.
    package var journal: JournalExpectation
    /// Further checks.
    package var checks: [Check]

    /// Creates an expectation.
    package init(_ outcome: Outcome, journal: JournalExpectation = .any, checks: [Check] = []) {
        self.outcome = outcome
        self.journal = journal
        self.checks = checks
    }
}
