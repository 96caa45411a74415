import ConformanceModel

/// The differences between two runs (a baseline and a new one), case by case, by stable ID.
package struct ReportComparison: Sendable, Codable {

    /// One case whose verdict changed.
    package struct Change: Sendable, Codable, Hashable, CustomStringConvertible {
        package var id: String
        package var level: ConformanceLevel
        package var before: Verdict?
        package var after: Verdict?
        package var reason: String?

        package var description: String {
            "\(id) [\(level.rawValue)]: \(before?.rawValue ?? "absent") -> \(after?.rawValue ?? "absent")"
                + (reason.map { " — \($0)" } ?? "")
        }
    }

    /// Cases that pass (or did not exist) in the baseline and fail, error or hang now.
    package var newFailures: [Change]
    /// Cases that failed in the baseline and pass now.
    package var fixed: [Change]
    /// Cases that passed in the baseline and are skipped now: a subject that declared a feature unsupported
    /// since loses them without failing any, so they count against the run as new failures do.
    package var passesLostToSkips: [Change]
    /// Other verdict changes (skips, cases added or retired).
    package var otherChanges: [Change]

    /// Whether the new run is worse than the baseline: a new failure, or a pass lost to a skip.
    package var regressed: Bool { !newFailures.isEmpty || !passesLostToSkips.isEmpty }

    /// How many passes each feature the subject declared unsupported cost, from the skip reasons
    /// (`feature: why`), most expensive first.
    package var passesLostByFeature: [(feature: String, count: Int)] {
        let features = passesLostToSkips.map { change in
            change.reason.flatMap { $0.split(separator: ":", maxSplits: 1).first.map(String.init) } ?? "unknown"
        }
        return Dictionary(grouping: features, by: { $0 }).map { ($0.key, $0.value.count) }
            .sorted { $0.count != $1.count ? $0.count > $1.count : $0.feature < $1.feature }
    }

    /// Compares a baseline with a new report.
    package init(baseline: SuiteReport, current: SuiteReport) {
        let before = Dictionary(baseline.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let after = Dictionary(current.cases.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var newFailures: [Change] = []
        var fixed: [Change] = []
        var lostToSkips: [Change] = []
        var other: [Change] = []
        for result in current.cases {
            let old = before[result.id]
            guard old?.verdict != result.verdict else { continue }
            let change = Change(id: result.id, level: result.level, before: old?.verdict, after: result.verdict, reason: result.reason)
            if result.verdict.failsRun && !(old?.verdict.failsRun ?? false) {
                newFailures.append(change)
            } else if old?.verdict.failsRun == true && result.verdict == .pass {
                fixed.append(change)
            } else if old?.verdict == .pass && result.verdict == .skip {
                lostToSkips.append(change)
            } else {
                other.append(change)
            }
        }
        for result in baseline.cases where after[result.id] == nil {
            other.append(Change(id: result.id, level: result.level, before: result.verdict, after: nil, reason: "retired"))
        }
        self.newFailures = newFailures
        self.fixed = fixed
        self.passesLostToSkips = lostToSkips
        self.otherChanges = other
    }

    /// A text summary, new failures first.
    package var text: String {
        var text =
            "\(newFailures.count) new failure(s), \(passesLostToSkips.count) pass(es) now skipped, \(fixed.count) fixed, \(otherChanges.count) other change(s)\n"
        if !newFailures.isEmpty { text += "\nNew failures:\n" + newFailures.map { "  \($0)\n" }.joined() }
        if !passesLostToSkips.isEmpty {
            text += "\nPasses now skipped, by the feature declared unsupported:\n"
            text += passesLostByFeature.map { "  \($0.feature): \($0.count)\n" }.joined()
            text += passesLostToSkips.map { "  \($0)\n" }.joined()
        }
        if !fixed.isEmpty { text += "\nFixed:\n" + fixed.map { "  \($0)\n" }.joined() }
        if !otherChanges.isEmpty { text += "\nOther changes:\n" + otherChanges.map { "  \($0)\n" }.joined() }
        return text
    }
}
