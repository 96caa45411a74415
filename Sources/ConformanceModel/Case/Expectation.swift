/// What a case expects: the outcome, the server journal and further checks.
package struct Expectation: Sendable {
    /// The fetch's outcome; unstated fields are not compared.
    package var outcome: Outcome
    /// What the connection journal must show.
    package var journal: JournalExpectation
    /// Further checks.
    package var checks: [Check]
    /// Other expectations the case may meet instead of this one, where the spec leaves a choice to the stack
    /// (a `303` to a `PUT` returned, or followed with a `GET`) but not what each choice must show.
    package var alternatives: [Expectation]

    /// Creates an expectation.
    package init(_ outcome: Outcome, journal: JournalExpectation = .any, checks: [Check] = [], or alternatives: [Expectation] = []) {
        self.outcome = outcome
        self.journal = journal
        self.checks = checks
        self.alternatives = alternatives
    }

    /// Every difference between this expectation and what a case observed, one line each: first a fetch that
    /// completed more than once (FETCH-1, which every case expects), then the outcome, the journal and the checks.
    /// When an alternative matches there is none; when none does, the lines are this expectation's.
    func mismatches(in observation: Observation) -> [String] {
        let most = observation.mostCompletionsOfOneFetch
        let once =
            most > 1 ? ["a fetch completed \(most == 2 ? "twice" : "\(most) times"); every fetch completes exactly once (FETCH-1)"] : []
        let own = ownMismatches(in: observation)
        guard !own.isEmpty, !alternatives.contains(where: { $0.ownMismatches(in: observation).isEmpty }) else { return once }
        return once + own
    }

    private func ownMismatches(in observation: Observation) -> [String] {
        let outcome = observation.outcome.map { self.outcome.mismatches(against: $0) } ?? ["outcome: no fetch of the case completed"]
        return outcome + journal.mismatches(against: observation.journal) + checks.compactMap { $0.mismatch(in: observation) }
    }

    /// The checks as a report shows them, each alternative last as one line (reports keep one expected outcome).
    var reportedChecks: [String] {
        checks.map(\.description)
            + alternatives.map { alternative in
                let parts = ["\(alternative.outcome)"] + alternative.journal.summary + alternative.checks.map(\.description)
                return "or instead: " + parts.joined(separator: "; ")
            }
    }
}
