import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Delays are honoured: the next attempt reaches the server no sooner than the delay after the failed one
    /// (a lower bound, checked on the server's arrival times), and not absurdly later (a generous upper bound
    /// for a loaded machine) (RETRY-4, RETRY-9, RETRY-10).
    static var retryTiming: [ConformanceCase] {
        let slack = 2.0
        return [
            ConformanceCase(
                id: "retry.timing.retry-after", title: "retryAfter(0.25) starts the next attempt no sooner than 0.25 s later",
                rules: ["RETRY-4"],
                explanation:
                    "A 503 answered retryAfter(0.25), then a 200: the second request reaches the server at least 0.25 s after the first (the wait starts only after the first response).",
                server: .plain(status(503), ok("later")), resource: .intercepted(.recorder("a", actions: [.retryAfter(0.25)])),
                expected: Expectation(
                    success("later"), journal: .requests(2), checks: [.requestGap(index: 1, atLeast: 0.25, atMost: 0.25 + slack)])),
            ConformanceCase(
                id: "retry.timing.retry-after-each", title: "each retryAfter delay is waited in turn: 0.1 s, then 0.3 s",
                rules: ["RETRY-4"],
                explanation:
                    "Two 503s answered retryAfter(0.1) and retryAfter(0.3): the gaps between the three requests are at least 0.1 s and at least 0.3 s, each delay on its own.",
                server: .plain(status(503), status(503), ok("third")),
                resource: .intercepted(.recorder("a", actions: [.retryAfter(0.1), .retryAfter(0.3)])),
                expected: Expectation(
                    success("third"), journal: .requests(3),
                    checks: [
                        .requestGap(index: 1, atLeast: 0.1, atMost: 0.1 + slack), .requestGap(index: 2, atLeast: 0.3, atMost: 0.3 + slack),
                    ])),
            ConformanceCase(
                id: "retry.timing.constant-backoff", title: "a constant backoff of 0.2 s waits 0.2 s before the retry",
                rules: ["RETRY-9", "RETRY-4"],
                explanation:
                    "constant(0.2, maxRetries(1)) after a 503: the retry reaches the server at least 0.2 s after the first request.",
                server: .plain(status(503), ok("backed-off")),
                resource: .intercepted(.policy(.constant(delay: 0.2, until: .maxRetries(1)))),
                expected: Expectation(
                    success("backed-off"), journal: .requests(2), checks: [.requestGap(index: 1, atLeast: 0.2, atMost: 0.2 + slack)])),
            ConformanceCase(
                id: "retry.timing.exponential-backoff", title: "an exponential backoff doubling from 0.1 s waits 0.1 s, then 0.2 s",
                rules: ["RETRY-10", "RETRY-4"],
                explanation:
                    "exponential(0.1, base × 2^(n-1), maxRetries(2)) after two 503s: the gaps are at least 0.1 s and at least 0.2 s.",
                server: .plain(status(503), status(503), ok("third")),
                resource: .intercepted(.policy(.exponential(base: 0.1, scale: .doubling, until: .maxRetries(2)))),
                expected: Expectation(
                    success("third"), journal: .requests(3),
                    checks: [
                        .requestGap(index: 1, atLeast: 0.1, atMost: 0.1 + slack), .requestGap(index: 2, atLeast: 0.2, atMost: 0.2 + slack),
                    ])),
        ]
    }
}
