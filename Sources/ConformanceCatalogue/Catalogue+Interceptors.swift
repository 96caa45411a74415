import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Interceptor hook order and arguments, and what make-request interceptors may do.
    static var interceptors: [ConformanceCase] {
        return [
            ConformanceCase(
                id: "interceptor.order.success", title: "hooks run in array order: make, scheduled, success",
                rules: ["INT-1", "INT-3"],
                explanation: "Two recorders on a 200: a.make, b.make, a.scheduled, b.scheduled, a.success, b.success.",
                server: .plain(ok()), resource: .intercepted(.recorder("a"), .recorder("b")),
                expected: Expectation(
                    success(), checks: [.hooks(["a.make", "b.make", "a.scheduled", "b.scheduled", "a.success", "b.success"])])),
            ConformanceCase(
                id: "interceptor.order.failure", title: "hooks run in array order: make, scheduled, failure",
                rules: ["INT-1", "INT-4"],
                explanation: "Two recorders on a 500: the failed hook runs for each, in order, and no success hook runs.",
                server: .plain(status(500)), resource: .intercepted(.recorder("a"), .recorder("b")),
                expected: Expectation(
                    Outcome(kind: .http, status: 500),
                    checks: [.hooks(["a.make", "b.make", "a.scheduled", "b.scheduled", "a.failure", "b.failure"])])),
            ConformanceCase(
                id: "interceptor.order.retry", title: "a retry re-runs request making and every hook",
                rules: ["INT-6"],
                explanation: "A retried fetch is a full fetch: make, scheduled and failure, then make, scheduled and success again.",
                server: .plain(status(503), ok()), resource: .intercepted(.recorder("a"), .policy(.maxRetries(1))),
                expected: Expectation(
                    success(), checks: [.hooks(["a.make", "a.scheduled", "a.failure", "a.make", "a.scheduled", "a.success"])])),
            ConformanceCase(
                id: "interceptor.order.no-data", title: "noData reaches the failed hook",
                rules: ["INT-4", "FETCH-8"], explanation: "An empty 200 fails as noData through the interceptors, like http and url.",
                server: .plain(status(200)), resource: .intercepted(.recorder("a")),
                expected: Expectation(Outcome(kind: .noData, status: 200), checks: [.hooks(["a.make", "a.scheduled", "a.failure"])])),
            ConformanceCase(
                id: "interceptor.order.url", title: "a transport failure reaches the failed hook",
                rules: ["INT-4"], explanation: "A reset after the request fails as url through the interceptors.",
                server: .plain(.fault(.resetWithNoReply)), resource: .intercepted(.recorder("a")),
                expected: Expectation(Outcome(kind: .url), checks: [.hooks(["a.make", "a.scheduled", "a.failure"])])),
            ConformanceCase(
                id: "interceptor.order.no-request", title: "noRequest runs no scheduled or failed hook",
                rules: ["INT-5", "FETCH-4"],
                explanation: "A failing request maker: every make hook sees the failure, and nothing else runs.",
                server: .plain(),
                resource: ResourceSpec().with {
                    $0.requestMaking = .failing; $0.interceptors = [.recorder("a"), .recorder("b")]
                },
                expected: Expectation(Outcome(kind: .noRequest), checks: [.hooks(["a.make", "b.make"])])),
            ConformanceCase(
                id: "interceptor.make-request.changes-request", title: "a make-request interceptor changes the request that is sent",
                rules: ["FETCH-2"], explanation: "An interceptor that sets a header: the server receives it.",
                server: .plain(ok()), resource: .intercepted(.setHeader("X-Intercepted", "yes")),
                expected: Expectation(success(), checks: [.requestHeader(index: 0, name: "X-Intercepted", value: "yes")])),
            ConformanceCase(
                id: "interceptor.make-request.chain-order", title: "make-request interceptors see the previous one's result",
                rules: ["FETCH-2", "INT-1"], explanation: "Two interceptors set the same header: the later one's value is sent.",
                server: .plain(ok()), resource: .intercepted(.setHeader("X-Order", "first"), .setHeader("X-Order", "second")),
                expected: Expectation(success(), checks: [.requestHeader(index: 0, name: "X-Order", value: "second")])),
            ConformanceCase(
                id: "interceptor.make-request.failure-skips-network",
                title: "an interceptor's failure gives noRequest, and later interceptors see it",
                rules: ["FETCH-2", "FETCH-4"],
                explanation: "A failing interceptor before a recorder: the recorder's make hook receives the failure; nothing is sent.",
                server: .plain(), resource: .intercepted(.failRequest, .recorder("b")),
                expected: Expectation(Outcome(kind: .noRequest), journal: JournalExpectation(connections: 0), checks: [.hooks(["b.make"])])),
            ConformanceCase(
                id: "interceptor.make-request.recovers", title: "an interceptor may turn a failed request result into a request",
                rules: ["FETCH-5"], explanation: "A failing request maker, then an interceptor that supplies a request: it is sent.",
                server: .plain(ok("recovered")),
                resource: ResourceSpec().with {
                    $0.requestMaking = .failing; $0.interceptors = [.recoverRequest(path: "/recovered")]
                },
                expected: Expectation(success("recovered"), checks: [.requestPath(index: 0, path: "/recovered")])),
            ConformanceCase(
                id: "interceptor.make-request.fails-then-recovers",
                title: "a request an interceptor turned into a failure, and a later one back into a request, is sent",
                rules: ["FETCH-5", "FETCH-2"],
                explanation:
                    "The request maker succeeds; the first interceptor turns its request into a failure, the second turns that failure into a request for /recovered: the stack acts only on the final result, so /recovered is sent and succeeds. A stack that stops the chain at the first interceptor that fails passes interceptor.make-request.recovers (where the maker fails) and completes with noRequest here.",
                server: .plain(ok("recovered")), resource: .intercepted(.failRequest, .recoverRequest(path: "/recovered")),
                expected: Expectation(success("recovered"), journal: .requests(1), checks: [.requestPath(index: 0, path: "/recovered")])),
            ConformanceCase(
                id: "interceptor.make-request.asynchronous-maker", title: "an asynchronous request maker is waited for",
                rules: ["FETCH-3"], explanation: "The base request arrives 50 ms later, from another thread: it is sent.",
                server: .plain(ok("async maker")), resource: ResourceSpec().with { $0.requestMaking = .asynchronous(after: 0.05) },
                expected: Expectation(success("async maker"))),
            ConformanceCase(
                id: "interceptor.success.sees-retry-state", title: "the success hook sees the state with the earlier failures",
                rules: ["INT-3", "RETRY-6"], explanation: "Two failures then success: the scheduled hooks see retry counts 0, 1, 2.",
                server: .plain(status(500), status(500), ok()), resource: .intercepted(.recorder("a", actions: [.retry, .retry])),
                expected: Expectation(
                    success(),
                    checks: [
                        .scheduledRetryCounts([0, 1, 2]),
                        .hooks([
                            "a.make", "a.scheduled", "a.failure", "a.make", "a.scheduled", "a.failure", "a.make", "a.scheduled",
                            "a.success",
                        ]),
                    ])),
        ]
    }
}
