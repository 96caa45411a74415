import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Every cell of the `mostPrioritary` table, and custom priority closures.
    static var priority: [ConformanceCase] {
        let d = 1.0 / 64
        let actions: [(String, Retry.Action)] = [
            ("none", .none), ("retry", .retry), ("retry-after", .retryAfter(2 * d)), ("no-retry", .noRetry(.retries(7))),
        ]
        let rhsActions: [(String, Retry.Action)] = [
            ("none", .none), ("retry", .retry), ("retry-after", .retryAfter(d)), ("no-retry", .noRetry(.delay(9))),
        ]
        /// The expected combined action, by the table.
        func combined(_ lhs: Retry.Action, _ rhs: Retry.Action) -> Retry.Action {
            switch (lhs, rhs) {
            case (.noRetry, _): lhs
            case (_, .noRetry): rhs
            case (.retryAfter(let a), .retryAfter(let b)): a > b ? lhs : rhs
            case (.retryAfter, _): lhs
            case (_, .retryAfter): rhs
            case (.retry, _), (_, .retry): .retry
            default: .none
            }
        }
        /// Two actions of the same kind: the tie-breaking rule decides.
        func tie(_ lhs: Retry.Action, _ rhs: Retry.Action) -> Bool {
            switch (lhs, rhs) {
            case (.noRetry, .noRetry), (.retryAfter, .retryAfter): true
            default: false
            }
        }
        func expectation(for action: Retry.Action) -> Expectation {
            switch action {
            case .none: Expectation(Outcome(kind: .http, status: 500), journal: .requests(1))
            case .retry: Expectation(success("second"), journal: .requests(2), checks: [.scheduledTotalDelays([0, 0])])
            case .retryAfter(let delay): Expectation(success("second"), journal: .requests(2), checks: [.scheduledTotalDelays([0, delay])])
            case .noRetry(let error):
                Expectation(Outcome(kind: .retry, retryError: ActionName.describe(error), attempts: 1), journal: .requests(1))
            }
        }
        var cases: [ConformanceCase] = []
        for (lhsName, lhs) in actions {
            for (rhsName, rhs) in rhsActions {
                let result = combined(lhs, rhs)
                cases.append(
                    ConformanceCase(
                        id: "priority.table.\(lhsName).\(rhsName)",
                        title: "mostPrioritary(\(ActionName.describe(lhs)), \(ActionName.describe(rhs))) is \(ActionName.describe(result))",
                        rules: tie(lhs, rhs) ? ["PRIO-1", "PRIO-2", "PRIO-3"] : ["PRIO-1", "PRIO-2"],
                        explanation:
                            "Two interceptors answer \(ActionName.describe(lhs)) then \(ActionName.describe(rhs)) to one 500; the default priority folds them from none: noRetry > retryAfter (longer wins) > retry > none, and between two noRetry the first wins.",
                        server: .plain(status(500), ok("second")),
                        resource: .intercepted(.recorder("a", actions: [lhs]), .recorder("b", actions: [rhs])),
                        expected: expectation(for: result)))
            }
        }
        cases.append(
            ConformanceCase(
                id: "priority.retry-after.shorter-first", title: "between two retryAfter the longer delay wins, whichever comes first",
                rules: ["PRIO-3"], explanation: "retryAfter(1/64) then retryAfter(2/64): the second attempt waits 2/64.",
                server: .plain(status(500), ok("second")),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(d)]), .recorder("b", actions: [.retryAfter(2 * d)])),
                expected: Expectation(success("second"), checks: [.scheduledTotalDelays([0, 2 * d])])))
        cases.append(
            ConformanceCase(
                id: "priority.retry-after.tie", title: "two equal retryAfter give that delay",
                rules: ["PRIO-3"], explanation: "retryAfter(1/64) twice: rhs wins on a tie, the same delay.",
                server: .plain(status(500), ok("second")),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(d)]), .recorder("b", actions: [.retryAfter(d)])),
                expected: Expectation(success("second"), checks: [.scheduledTotalDelays([0, d])])))
        cases.append(
            ConformanceCase(
                id: "priority.fold.every-interceptor-asked", title: "every interceptor's failed hook runs, in order, even after a noRetry",
                rules: ["INT-4", "PRIO-1"],
                explanation: "There is no short-circuit: a noRetry from the first interceptor does not skip the second.",
                server: .plain(status(500)),
                resource: .intercepted(.recorder("a", actions: [.noRetry(.retries(1))]), .recorder("b", actions: [.retry])),
                expected: Expectation(
                    Outcome(kind: .retry, retryError: "retries(1)"),
                    checks: [.hooks(["a.make", "b.make", "a.scheduled", "b.scheduled", "a.failure", "b.failure"])])))
        cases.append(
            ConformanceCase(
                id: "priority.custom.keep-accumulated", title: "a custom priority closure is a left fold from none",
                rules: ["PRIO-1", "PRIO-4"],
                explanation:
                    "A closure that always returns its first argument is called (none, retry) then (none, noRetry): the fold stays none and the raw error is delivered.",
                server: .plain(status(500)),
                resource: ResourceSpec().with {
                    $0.interceptors = [.recorder("a", actions: [.retry]), .recorder("b", actions: [.noRetry(.retries(9))])]
                    $0.priority = .keepAccumulated
                },
                expected: Expectation(
                    Outcome(kind: .http, status: 500), checks: [.priorityCalls(["none|retry", "none|noRetry(retries(9))"])])))
        cases.append(
            ConformanceCase(
                id: "priority.custom.take-newest", title: "a custom priority closure decides over the default table",
                rules: ["PRIO-4"],
                explanation:
                    "A closure that always takes the newest action: noRetry then retry gives retry, which the default table would never pick.",
                server: .plain(status(500), ok("second")),
                resource: ResourceSpec().with {
                    $0.interceptors = [.recorder("a", actions: [.noRetry(.retries(1))]), .recorder("b", actions: [.retry])]
                    $0.priority = .takeNewest
                },
                expected: Expectation(
                    success("second"), checks: [.priorityCalls(["none|noRetry(retries(1))", "noRetry(retries(1))|retry"])])))
        return cases
    }
}
