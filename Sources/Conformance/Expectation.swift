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

    /// Every difference between this expectation and what a case observed, one line each: first a fetch that
    /// completed more than once (FETCH-1, which every case expects), then the outcome, the journal and the checks.
    func mismatches(in observation: Observation) -> [String] {
        let most = observation.mostCompletionsOfOneFetch
        let once =
            most > 1 ? ["a fetch completed \(most == 2 ? "twice" : "\(most) times"); every fetch completes exactly once (FETCH-1)"] : []
        let outcome = observation.outcome.map { self.outcome.mismatches(against: $0) } ?? ["outcome: no fetch of the case completed"]
        return once + outcome + journal.mismatches(against: observation.journal) + checks.compactMap { $0.mismatch(in: observation) }
    }
}
