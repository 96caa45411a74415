import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Retry actions, each policy and truncation at and around its boundary, and the retry state.
    static var retry: [ConformanceCase] {
        var cases: [ConformanceCase] = []

        // maxRetries(N): exactly N retries (N + 1 attempts), checked with N - 1, N and N + 1 failures.
        for max in [1, 3] {
            for failures in [max - 1, max, max + 1] {
                let responses = Array(repeating: status(503), count: failures) + [ok("after \(failures)")]
                let succeeds = failures <= max
                cases.append(
                    ConformanceCase(
                        id: "retry.max-retries.\(max).failures-\(failures)",
                        title: "maxRetries(\(max)) with \(failures) failure(s) "
                            + (succeeds ? "succeeds on attempt \(failures + 1)" : "stops after \(max + 1) attempts"),
                        rules: succeeds ? ["RETRY-7"] : ["RETRY-7", "RETRY-5"],
                        explanation:
                            "maxRetries(N) retries while the previous error count is below N (>= stops): \(failures) failure(s) against N = \(max).",
                        server: .plain(responses), resource: .intercepted(.policy(.maxRetries(max))),
                        expected: succeeds
                            ? Expectation(success("after \(failures)"), journal: .requests(failures + 1))
                            : Expectation(
                                Outcome(kind: .retry, status: 503, retryError: "retries(\(max))", attempts: max + 1, totalDelay: 0),
                                journal: .requests(max + 1))))
            }
        }
        for max in [0, -1] {
            cases.append(
                ConformanceCase(
                    id: "retry.max-retries.\(max == 0 ? "zero" : "negative")", title: "maxRetries(\(max)) never retries",
                    rules: ["RETRY-7"],
                    explanation: "The first failure already has retryCount 0 >= \(max): noRetry(.retries(\(max))) after one attempt.",
                    server: ServerScript(repeating: status(503)), resource: .intercepted(.policy(.maxRetries(max))),
                    expected: Expectation(
                        Outcome(kind: .retry, retryError: "retries(\(max))", attempts: 1, totalDelay: 0), journal: .requests(1))))
        }

        // Constant backoff truncated by retries: the delay is added for every scheduled retry.
        let d = 1.0 / 64  // exact in binary, so the total is exact
        cases.append(
            ConformanceCase(
                id: "retry.constant.max-retries", title: "constant(1/64 s, maxRetries(2)) makes three attempts and schedules 2 × 1/64 s",
                rules: ["RETRY-9", "RETRY-7", "RETRY-4"],
                explanation: "Each retry waits the constant delay; the total delay counts the two scheduled delays.",
                server: ServerScript(repeating: status(503)), resource: .intercepted(.policy(.constant(delay: d, until: .maxRetries(2)))),
                expected: Expectation(
                    Outcome(kind: .retry, retryError: "retries(2)", attempts: 3, totalDelay: 2 * d), journal: .requests(3))))
        // Constant backoff truncated by delay: T < D retries, T == D stops, and the last delay may overshoot.
        for (name, limit, attempts, total) in [
            ("below", 2 * d - d / 2, 3, 2 * d), ("at", 2 * d, 3, 2 * d), ("above", 2 * d + d / 2, 4, 3 * d),
        ] {
            cases.append(
                ConformanceCase(
                    id: "retry.constant.max-delay.\(name)-boundary",
                    title: "constant(1/64 s, maxDelay(\(limit))) stops after \(attempts) attempts with \(total) s scheduled",
                    rules: ["RETRY-8", "RETRY-9"],
                    explanation:
                        "maxDelay(D) lets a retry be scheduled while the scheduled total T < D and stops once T >= D; the check comes before the next delay is added, so the total may exceed D by one delay.",
                    server: ServerScript(repeating: status(503)),
                    resource: .intercepted(.policy(.constant(delay: d, until: .maxDelay(limit)))),
                    expected: Expectation(
                        Outcome(kind: .retry, retryError: "delay(\(limit))", attempts: attempts, totalDelay: total),
                        journal: .requests(attempts))))
        }
        cases.append(
            ConformanceCase(
                id: "retry.max-delay.zero", title: "maxDelay(0) never retries",
                rules: ["RETRY-8"], explanation: "T = 0 >= 0 on the first failure: noRetry(.delay(0)).",
                server: ServerScript(repeating: status(503)), resource: .intercepted(.policy(.constant(delay: d, until: .maxDelay(0)))),
                expected: Expectation(Outcome(kind: .retry, retryError: "delay(0.0)", attempts: 1, totalDelay: 0), journal: .requests(1))))

        // Exponential backoff.
        cases.append(
            ConformanceCase(
                id: "retry.backoff.documented-example",
                title: "exponential(0.1, base × retry, maxDelay(0.4)) retries 3 times with 0.6 s scheduled",
                rules: ["RETRY-10", "RETRY-8"],
                explanation:
                    "Delays 0.1, 0.2, then min(0.3, 0.4); the fourth failure sees T = 0.6 >= 0.4: .retry(.delay(0.4)) with four errors.",
                server: ServerScript(repeating: status(503)),
                resource: .intercepted(.policy(.exponential(base: 0.1, scale: .linear, until: .maxDelay(0.4)))),
                expected: Expectation(
                    Outcome(kind: .retry, retryError: "delay(0.4)", attempts: 4, totalDelay: 0.1 + 0.2 + 0.3), journal: .requests(4))))
        cases.append(
            ConformanceCase(
                id: "retry.backoff.max-delay-boundary", title: "each exponential delay is capped at maxDelay, not at what is left of it",
                rules: ["RETRY-10", "RETRY-8"],
                explanation:
                    "exponential(1/32, doubling, maxDelay(3/64)): delays 1/32 then min(1/16, 3/64) = 3/64; T = 5/64 stops: the cap applies per delay.",
                server: ServerScript(repeating: status(503)),
                resource: .intercepted(.recorder("a"), .policy(.exponential(base: 2 * d, scale: .doubling, until: .maxDelay(3 * d)))),
                expected: Expectation(
                    Outcome(kind: .retry, retryError: "delay(\(3 * d))", attempts: 3, totalDelay: 5 * d), journal: .requests(3),
                    checks: [.failureTotalDelays([0, 2 * d, 5 * d])])))
        cases.append(
            ConformanceCase(
                id: "retry.backoff.exponential-max-retries",
                title: "exponential(1/128, doubling, maxRetries(3)) schedules 1/128 + 1/64 + 1/32",
                rules: ["RETRY-10"],
                explanation: "The scale receives the 1-based number of the retry about to be scheduled; no cap without maxDelay.",
                server: ServerScript(repeating: status(503)),
                resource: .intercepted(.policy(.exponential(base: d / 2, scale: .doubling, until: .maxRetries(3)))),
                expected: Expectation(
                    Outcome(kind: .retry, retryError: "retries(3)", attempts: 4, totalDelay: d / 2 + d + 2 * d), journal: .requests(4))))
        cases.append(
            ConformanceCase(
                id: "retry.backoff.zero-scale", title: "an exponential scale returning 0 retries at once and adds nothing to the total",
                rules: ["RETRY-10", "RETRY-4"],
                explanation: "Non-positive delays are immediate retries: the total stays 0 and maxRetries(2) stops after three attempts.",
                server: ServerScript(repeating: status(503)),
                resource: .intercepted(.policy(.exponential(base: 1, scale: .zero, until: .maxRetries(2)))),
                expected: Expectation(Outcome(kind: .retry, retryError: "retries(2)", attempts: 3, totalDelay: 0), journal: .requests(3))))

        // Each Retry.Action, answered by an interceptor on the first failure.
        cases.append(
            ConformanceCase(
                id: "retry.action.none", title: "the action none delivers the raw error, not retry",
                rules: ["RETRY-2"],
                explanation: "An interceptor answering .none: completion(.failure(.http(500))) and the retry state is dropped.",
                server: .plain(status(500)), resource: .intercepted(.recorder("a", actions: [.none])),
                expected: Expectation(Outcome(kind: .http, status: 500), journal: .requests(1))))
        cases.append(
            ConformanceCase(
                id: "retry.action.retry", title: "the action retry retries at once",
                rules: ["RETRY-3", "INT-2"], explanation: "A 500, then .retry, then a 200: success on the second attempt with no delay.",
                server: .plain(status(500), ok("again")), resource: .intercepted(.recorder("a", actions: [.retry])),
                expected: Expectation(success("again"), journal: .requests(2), checks: [.scheduledRetryCounts([0, 1])])))
        cases.append(
            ConformanceCase(
                id: "retry.action.retry-after-a-delayed-one", title: "the action retry after a delayed retry adds no delay of its own",
                rules: ["RETRY-3", "RETRY-4"],
                explanation:
                    "A 503 answered retryAfter(1/64), a second 503 answered retry, then a 200: the scheduled hooks see total delays 0, 1/64, 1/64. A stack that carries the last delay over to the next retry (a backoff's state left in place) passes retry.action.retry, whose retry comes first, and waits and adds 1/64 again here.",
                server: .plain(status(503), status(503), ok("again")),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(d), .retry])),
                expected: Expectation(
                    success("again"), journal: .requests(3), checks: [.scheduledTotalDelays([0, d, d]), .scheduledRetryCounts([0, 1, 2])])))
        cases.append(
            ConformanceCase(
                id: "retry.action.retry-after", title: "the action retryAfter waits, and adds the delay to the total",
                rules: ["RETRY-4"], explanation: "A 500, then .retryAfter(0.05), then a 200: the second attempt sees totalDelay 0.05.",
                server: .plain(status(500), ok("later")), resource: .intercepted(.recorder("a", actions: [.retryAfter(0.05)])),
                expected: Expectation(
                    success("later"), journal: .requests(2),
                    checks: [.hooks(["a.make", "a.scheduled", "a.failure", "a.make", "a.scheduled", "a.success"])])))
        cases.append(
            ConformanceCase(
                id: "retry.action.retry-after-zero", title: "retryAfter(0) retries at once without adding to the total",
                rules: ["RETRY-4"], explanation: "A delay <= 0 is an immediate retry; totalDelay is not increased.",
                server: .plain(status(500), status(500), ok()),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(0), .retryAfter(0)])),
                expected: Expectation(success(), journal: .requests(3), checks: [.failureTotalDelays([0, 0])])))
        cases.append(
            ConformanceCase(
                id: "retry.action.retry-after-negative", title: "a negative retryAfter retries at once without adding to the total",
                rules: ["RETRY-4"], explanation: "retryAfter(-1.337) is an immediate retry; totalDelay stays 0.",
                server: .plain(status(500), status(500), ok()),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(-1.337), .none])),
                expected: Expectation(Outcome(kind: .http, status: 500), journal: .requests(2), checks: [.failureTotalDelays([0, 0])])))
        cases.append(
            ConformanceCase(
                id: "retry.action.no-retry", title: "the action noRetry fails with retry carrying that error",
                rules: ["RETRY-5"],
                explanation:
                    "An interceptor answering .noRetry(.custom(E)) on the first failure: .retry(.custom(E), state with one error).",
                server: .plain(status(500)),
                resource: .intercepted(.recorder("a", actions: [.noRetry(.custom(ConformanceRequestError.customRuleRefused))])),
                expected: Expectation(
                    Outcome(
                        kind: .retry, status: 500, retryError: "custom(customRuleRefused)", attempts: 1, totalDelay: 0, lastErrorKind: .http
                    ), journal: .requests(1))))

        // The state the hooks see.
        cases.append(
            ConformanceCase(
                id: "retry.state.previous-errors-only", title: "the failed hook sees the state without the current failure",
                rules: ["RETRY-6", "INT-2"],
                explanation: "Two failures answered .retry: the failed hook sees retry counts 0 then 1; the scheduled hook 0, 1, 2.",
                server: .plain(status(500), status(500), ok()), resource: .intercepted(.recorder("a", actions: [.retry, .retry])),
                expected: Expectation(success(), checks: [.failureRetryCounts([0, 1]), .scheduledRetryCounts([0, 1, 2])])))
        cases.append(
            ConformanceCase(
                id: "retry.state.total-delay-positive-only", title: "only positive scheduled delays add to the total delay",
                rules: ["RETRY-4", "RETRY-6"],
                explanation: "Actions retryAfter(1/64), retryAfter(0), retryAfter(-1): the failed hook sees totals 0, 1/64, 1/64.",
                server: .plain(status(503), status(503), status(503), ok()),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(d), .retryAfter(0), .retryAfter(-1)])),
                expected: Expectation(success(), checks: [.failureTotalDelays([0, d, d])])))
        cases.append(
            ConformanceCase(
                id: "retry.state.no-retry-carries-history",
                title: "noRetry after delayed retries carries every error and the scheduled total",
                rules: ["RETRY-5"],
                explanation: "retryAfter(1/64) twice, then noRetry(.custom): .retry(.custom, state) with three errors and total 2/64.",
                server: ServerScript(repeating: status(500)),
                resource: .intercepted(
                    .recorder("a", actions: [.retryAfter(d), .retryAfter(d), .noRetry(.custom(ConformanceRequestError.customRuleRefused))])),
                expected: Expectation(
                    Outcome(kind: .retry, retryError: "custom(customRuleRefused)", attempts: 3, totalDelay: 2 * d), journal: .requests(3))))
        cases.append(
            ConformanceCase(
                id: "retry.state.new-task-per-attempt", title: "every attempt is a new task with its own identifier",
                rules: ["FETCH-11", "INT-2"], explanation: "Three attempts: three distinct task identifiers in the hooks.",
                server: .plain(status(500), status(500), ok()), resource: .intercepted(.recorder("a", actions: [.retry, .retry])),
                expected: Expectation(success(), checks: [.distinctTaskIdentifiers(3)])))
        cases.append(
            ConformanceCase(
                id: "retry.state.task-identifier-per-hook", title: "each attempt's hooks carry that attempt's task identifier",
                rules: ["FETCH-11"],
                explanation:
                    "Three attempts, the second after retryAfter(1/64): each scheduled hook carries a new identifier, and the failed or success hook after it the same one. A stack that numbers the next task before it asks the interceptors about the last one passes retry.state.new-task-per-attempt (still three distinct identifiers) and gives each failed hook the next attempt's identifier here.",
                server: .plain(status(500), status(503), ok()), resource: .intercepted(.recorder("a", actions: [.retryAfter(d), .retry])),
                expected: Expectation(
                    success(), journal: .requests(3), checks: [.hooksCarryTheirAttemptsIdentifier, .distinctTaskIdentifiers(3)])))
        cases.append(
            ConformanceCase(
                id: "retry.state.resource-not-mutated", title: "fetching the same resource value again starts from an empty state",
                rules: ["FETCH-12"],
                explanation:
                    "Two sequential fetches of one resource value, the first retried once: the second fetch's scheduled hook sees retry count 0.",
                server: .plain(status(500), ok("first"), ok("second")), resource: .intercepted(.recorder("a", actions: [.retry])),
                action: .sequential(2),
                expected: Expectation(success("second"), checks: [.scheduledRetryCounts([0, 1, 0])])))
        cases.append(
            ConformanceCase(
                id: "retry.state.resource-not-mutated.after-failure",
                title: "a fetch that ran out of retries leaves the resource value's state empty for the next",
                rules: ["FETCH-12"],
                explanation:
                    "Two sequential fetches of one resource value under maxRetries(1): the first fails twice and ends with .retry(.retries(1)); the second starts with an empty state, so its 500 is retried and its 200 succeeds, the scheduled hooks seeing retry counts 0, 1, 0, 1. A stack that keeps a resource's retry state beside it and clears it when a fetch succeeds passes retry.state.resource-not-mutated and refuses the second fetch's first retry here.",
                server: .plain(status(500), status(500), status(500), ok("second")),
                resource: .intercepted(.recorder("a"), .policy(.maxRetries(1))), action: .sequential(2),
                expected: Expectation(
                    success("second"), journal: .requests(4), checks: [.scheduledRetryCounts([0, 1, 0, 1]), .completions(2)])))

        // What is and is not retried.
        cases.append(
            ConformanceCase(
                id: "retry.retryable.url", title: "a transport failure is retried",
                rules: ["RETRY-1"],
                explanation: "url errors go through the interceptors: a close without reply, then a 200, with maxRetries(1).",
                server: .plain(.fault(.closeWithNoReply), ok("recovered")), resource: .intercepted(.policy(.maxRetries(1))),
                expected: Expectation(success("recovered"), journal: .requests(2))))
        cases.append(
            ConformanceCase(
                id: "retry.retryable.no-data", title: "noData is retried",
                rules: ["RETRY-1", "FETCH-8"],
                explanation: "noData goes through the interceptors: an empty 200, then a 200 with a body, with maxRetries(1).",
                server: .plain(status(200), ok("full")), resource: .intercepted(.policy(.maxRetries(1))),
                expected: Expectation(success("full"), journal: .requests(2))))
        cases.append(
            ConformanceCase(
                id: "retry.retryable.http", title: "an http error is retried",
                rules: ["RETRY-1"], explanation: "A 503, then a 200, with maxRetries(1).",
                server: .plain(status(503), ok("up")), resource: .intercepted(.policy(.maxRetries(1))),
                expected: Expectation(success("up"), journal: .requests(2))))
        cases.append(
            ConformanceCase(
                id: "retry.not-retryable.no-request", title: "noRequest is never retried",
                rules: ["FETCH-4", "INT-5"],
                explanation: "A failing request maker with maxRetries(3): one noRequest, no interceptor failure hook, no connection.",
                server: .plain(),
                resource: ResourceSpec().with {
                    $0.requestMaking = .failing; $0.interceptors = [.recorder("a"), .policy(.maxRetries(3))]
                },
                expected: Expectation(Outcome(kind: .noRequest), journal: JournalExpectation(connections: 0), checks: [.hooks(["a.make"])]))
        )
        cases.append(
            ConformanceCase(
                id: "retry.custom.metadata", title: "a custom rule sees the attempt's response in its metadata",
                rules: ["RETRY-11"], explanation: "A rule that retries only 503s: a 503 is retried, the following 404 is not.",
                server: .plain(status(503), status(404)), resource: .intercepted(.policy(.retryStatuses([503], max: 3))),
                expected: Expectation(Outcome(kind: .http, status: 404), journal: .requests(2))))
        cases.append(
            ConformanceCase(
                id: "retry.custom.passthrough", title: "a custom rule's action is used unchanged",
                rules: ["RETRY-11"], explanation: "A custom rule answering noRetry(.retries(42)): .retry(.retries(42)).",
                server: .plain(status(500)), resource: .intercepted(.policy(.custom([.noRetry(.retries(42))]))),
                expected: Expectation(Outcome(kind: .retry, retryError: "retries(42)", attempts: 1))))
        return cases
    }
}
