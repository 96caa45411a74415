extension SuiteReport {

    /// Whether the run passes when a failed case at `level` or above fails it: at ``ConformanceLevel/must`` this
    /// is ``passed``; at ``ConformanceLevel/should`` a failed SHOULD case fails it too, for a CI job that gates on
    /// every level (a SHOULD rule's violation can be a silent wrong result, such as a POST kept on a 303).
    public func passes(failingOn level: ConformanceLevel) -> Bool {
        switch level {
        case .must: passed
        case .should: !cases.contains { $0.verdict.failsRun }
        }
    }
}
