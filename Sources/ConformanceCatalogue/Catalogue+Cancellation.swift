import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Cancellation at each stage completes exactly once with cancelled.
    static var cancellation: [ConformanceCase] {
        return [
            ConformanceCase(
                id: "cancel.request-making",
                title: "cancelling while request making is pending completes with cancelled, and nothing is sent later",
                rules: ["CANCEL-1", "CANCEL-2"],
                explanation:
                    "The request maker never answers; the caller cancels: .cancelled at once. The maker then answers late: nothing is sent and the completion does not run again.",
                server: .plain(), resource: ResourceSpec().with { $0.requestMaking = .pending }, action: .cancel(.requestMaking),
                expected: Expectation(Outcome(kind: .cancelled), journal: JournalExpectation(requests: 0), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.request-making.interceptor",
                title: "cancelling while an interceptor still makes the request completes with cancelled, and nothing is sent later",
                rules: ["CANCEL-2", "CANCEL-1"],
                explanation:
                    "The base request maker answers at once, but the make-request interceptor after it never does; the caller cancels: .cancelled at once. The interceptor then hands over its request late: nothing is sent and the completion does not run again. A stack that checks for a cancel after the base maker but sends whatever the interceptor chain hands it passes cancel.request-making and sends the late request here.",
                server: .plain(ok()), resource: .intercepted(.pendingRequest), action: .cancel(.requestMaking),
                expected: Expectation(
                    Outcome(kind: .cancelled), journal: JournalExpectation(connections: 0, requests: 0), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.in-flight", title: "cancelling while the request is in flight completes with cancelled",
                rules: ["CANCEL-1", "CANCEL-3"],
                explanation:
                    "The server reads the request and never answers; the caller cancels: .cancelled (not .url(.cancelled)), exactly once, and the stack stops the exchange (it closes the connection, or resets the HTTP/2 stream) before the server gives up a second later. The server then drops the connection: a stack that left the transfer running would offer its failure to the recording interceptor, which must see no failed or scheduled hook after the cancel.",
                server: .plain(.fault(.stallAfterRequest)), resource: .intercepted(.recorder("a")), action: .cancel(.inFlight),
                expected: Expectation(
                    Outcome(kind: .cancelled), checks: [.completions(1), .noRetryHookAfterCancel, .exchangeStoppedAfterCancel])),
            ConformanceCase(
                id: "cancel.in-flight.tls", title: "cancelling an HTTPS request in flight completes with cancelled",
                rules: ["CANCEL-3"], explanation: "As cancel.in-flight, over TLS.",
                server: .tls("valid-ec256", .fault(.stallAfterRequest)), resource: .intercepted(.recorder("a")), action: .cancel(.inFlight),
                expected: Expectation(
                    Outcome(kind: .cancelled), checks: [.completions(1), .noRetryHookAfterCancel, .exchangeStoppedAfterCancel])),
            ConformanceCase(
                id: "cancel.in-flight.with-retry-policy", title: "cancelling in flight is not retried",
                rules: ["CANCEL-3"],
                explanation:
                    "With maxRetries(3) behind a recording interceptor, cancelling in flight still completes with .cancelled after one request. The server then drops the connection: a stack that left the transfer running would fail it, retry it, and complete again; the recorder must see no failed or scheduled hook after the cancel.",
                server: .plain(.fault(.stallAfterRequest)), resource: .intercepted(.recorder("a"), .policy(.maxRetries(3))),
                action: .cancel(.inFlight),
                expected: Expectation(
                    Outcome(kind: .cancelled), journal: .requests(1), checks: [.completions(1), .noRetryHookAfterCancel])),
            ConformanceCase(
                id: "cancel.retry-delay", title: "cancelling while a delayed retry waits completes with cancelled",
                rules: ["CANCEL-1", "CANCEL-4"],
                explanation:
                    "A 503 answered retryAfter(30); the caller cancels during the wait: .cancelled at once (the original never called the completion), and no second request.",
                server: .plain(status(503)), resource: .intercepted(.recorder("a", actions: [.retryAfter(30)])),
                action: .cancel(.retryDelay),
                expected: Expectation(Outcome(kind: .cancelled), journal: .requests(1), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.retry-waiting.retry-after",
                title: "cancelling once a delayed retry is known to wait completes with cancelled, and the retry never comes",
                rules: ["CANCEL-4", "CANCEL-1"],
                explanation:
                    "A 503 answered retryAfter(1). After the failed hook, a second fetch on the same stack runs to completion, which proves the stack left the hook and began the wait; then the first fetch is cancelled: .cancelled exactly once, and until the delay has passed no retry reaches the server (the probe is the only other request). The delay leaves the probe a second to complete on a loaded machine.",
                server: .plain(status(503), ok("probe")), resource: .intercepted(.recorder("a", actions: [.retryAfter(1)])),
                action: .cancelWhileRetryWaits(probePath: "/probe", retryDelay: 1),
                expected: Expectation(
                    Outcome(kind: .cancelled), journal: .requests(2),
                    checks: [
                        .completions(1), .fetches(path: "/probe", kind: .success, count: 1), .requestPath(index: 1, path: "/probe"),
                    ])),
            ConformanceCase(
                id: "cancel.retry-waiting.backoff",
                title: "cancelling while a backoff's delay waits completes with cancelled, and the retry never comes",
                rules: ["CANCEL-4", "CANCEL-1"],
                explanation:
                    "As cancel.retry-waiting.retry-after, with the delay from constant(1, maxRetries(3)) behind a recording interceptor.",
                server: .plain(status(503), ok("probe")),
                resource: .intercepted(.recorder("a"), .policy(.constant(delay: 1, until: .maxRetries(3)))),
                action: .cancelWhileRetryWaits(probePath: "/probe", retryDelay: 1),
                expected: Expectation(
                    Outcome(kind: .cancelled), journal: .requests(2),
                    checks: [
                        .completions(1), .fetches(path: "/probe", kind: .success, count: 1), .requestPath(index: 1, path: "/probe"),
                    ])),
            ConformanceCase(
                id: "cancel.before-retry.retry", title: "cancelled before an immediate retry is scheduled: cancelled",
                rules: ["CANCEL-5"], explanation: "The failed hook cancels the fetch, then answers retry: .cancelled, no second request.",
                server: .plain(status(500), ok()), resource: .intercepted(.cancelFetchOnFailure(then: .retry)),
                expected: Expectation(Outcome(kind: .cancelled), journal: .requests(1), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.before-retry.retry-after", title: "cancelled before a delayed retry is scheduled: cancelled",
                rules: ["CANCEL-5"],
                explanation: "The failed hook cancels the fetch, then answers retryAfter(1/64): .cancelled, no second request.",
                server: .plain(status(500), ok()), resource: .intercepted(.cancelFetchOnFailure(then: .retryAfter(1.0 / 64))),
                expected: Expectation(Outcome(kind: .cancelled), journal: .requests(1), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.after-completion", title: "cancelling after the completion ran does nothing",
                rules: ["CANCEL-6", "FETCH-1"], explanation: "A 200 completes; a later cancel must not call the completion again.",
                server: .plain(ok()), action: .cancel(.afterCompletion),
                expected: Expectation(success(), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.after-completion.failure", title: "cancelling after a failure was delivered does nothing",
                rules: ["CANCEL-6", "FETCH-1"],
                explanation:
                    "A 500 goes through a recording interceptor that does not retry, and the fetch completes with .http(500); a later cancel must neither call the completion again nor turn the result into .cancelled. A stack that marks a fetch finished on its success path only passes cancel.after-completion and completes twice here.",
                server: .plain(status(500)), resource: .intercepted(.recorder("a")), action: .cancel(.afterCompletion),
                expected: Expectation(Outcome(kind: .http, status: 500), journal: .requests(1), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.async-task", title: "cancelling the Swift task of an async fetch cancels the fetch",
                rules: ["CANCEL-7"], explanation: "The task awaiting fetch(resource:) is cancelled while in flight: it throws .cancelled.",
                server: .plain(.fault(.stallAfterRequest)), action: .cancelAsyncTask,
                expected: Expectation(Outcome(kind: .cancelled), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.async-task.already-cancelled", title: "an async fetch started in a cancelled Swift task throws cancelled",
                rules: ["CANCEL-7"],
                explanation:
                    "The task is cancelled before it calls fetch(resource:), so Swift runs the cancellation handler at once, before the fetch has a Cancelable to cancel; the server would answer 200. The fetch must still throw .cancelled, exactly once. An async wrapper that keeps the Cancelable only once fetch returned loses this early cancel and returns the 200.",
                server: .plain(ok()), action: .asyncFetchInCancelledTask,
                expected: Expectation(Outcome(kind: .cancelled), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.stack-released", title: "releasing the stack mid-flight completes the fetch with cancelled",
                rules: ["CANCEL-8", "FETCH-1"],
                explanation:
                    "The last reference to the stack goes away while the server holds the request: the fetch completes exactly once with .cancelled.",
                server: .plain(.fault(.stallAfterRequest)), action: .releaseStackInFlight,
                expected: Expectation(Outcome(kind: .cancelled), checks: [.completions(1)])),
            ConformanceCase(
                id: "cancel.stack-released.retry-waiting",
                title: "releasing the stack while a fetch waits for a delayed retry completes it with cancelled",
                rules: ["CANCEL-8", "FETCH-1"],
                explanation:
                    "A 503 answered retryAfter(30). After the failed hook, a second fetch on the same stack runs to completion, which proves the first one is waiting for its retry, with no transfer in flight; then the last reference to the stack goes away: the waiting fetch completes exactly once with .cancelled, at once, and its retry never reaches the server. A stack that cancels its transfers when released, but leaves a retry timer that no longer finds the stack, drops this fetch (the original's behaviour).",
                server: .plain(status(503), ok("probe")), resource: .intercepted(.recorder("a", actions: [.retryAfter(30)])),
                action: .releaseStackWhileRetryWaits(probePath: "/probe"),
                expected: Expectation(
                    Outcome(kind: .cancelled), journal: .requests(2),
                    checks: [
                        .completions(1), .fetches(path: "/probe", kind: .success, count: 1), .requestPath(index: 1, path: "/probe"),
                    ])),
        ]
    }
}
