import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// URLRequestAuthenticator as an interceptor: adding a token, reauthenticating after a 401, refusing.
    static var authentication: [ConformanceCase] {
        return [
            ConformanceCase(
                id: "auth.token-added", title: "an authenticator adds its token to the request",
                rules: ["AUTH-1"], explanation: "The authenticator's make-request hook sets Authorization: the server receives it.",
                server: .plain(ok()), resource: .intercepted(.authenticator(.token("t0k3n"))),
                expected: Expectation(success(), checks: [.requestHeader(index: 0, name: "Authorization", value: "Bearer t0k3n")])),
            ConformanceCase(
                id: "auth.token-added-asynchronously", title: "an asynchronous authenticator is waited for",
                rules: ["AUTH-1", "FETCH-3"], explanation: "The token arrives 50 ms later from another thread: the request carries it.",
                server: .plain(ok()), resource: .intercepted(.authenticator(.asynchronous(token: "late", after: 0.05))),
                expected: Expectation(success(), checks: [.requestHeader(index: 0, name: "Authorization", value: "Bearer late")])),
            ConformanceCase(
                id: "auth.reauthenticate-after-401",
                title: "after a 401 the authenticator refreshes its token and the request is retried with it",
                rules: ["AUTH-3", "INT-6"],
                explanation: "401, then 200: the first request carries the old token, the retry the new one; the caller sees success.",
                server: .plain(status(401), ok("authorized")),
                resource: .intercepted(.authenticator(.reauthenticating(first: "old", second: "new"))),
                expected: Expectation(
                    success("authorized"), journal: .requests(2),
                    checks: [
                        .requestHeader(index: 0, name: "Authorization", value: "Bearer old"),
                        .requestHeader(index: 1, name: "Authorization", value: "Bearer new"),
                    ])),
            ConformanceCase(
                id: "auth.reauthenticate-once", title: "a second 401 with the new token is delivered as http(401)",
                rules: ["AUTH-3"],
                explanation:
                    "The authenticator refreshes once; when the new token is refused too it answers none and the 401 is delivered raw.",
                server: .plain(status(401), status(401)),
                resource: .intercepted(.authenticator(.reauthenticating(first: "old", second: "new"))),
                expected: Expectation(Outcome(kind: .http, status: 401), journal: .requests(2))),
            ConformanceCase(
                id: "auth.other-failures-ignored", title: "an authenticator ignores failures that are not 401",
                rules: ["AUTH-3", "RETRY-2"], explanation: "A 500: the authenticator answers none; no retry.",
                server: .plain(status(500)), resource: .intercepted(.authenticator(.reauthenticating(first: "old", second: "new"))),
                expected: Expectation(Outcome(kind: .http, status: 500), journal: .requests(1))),
            ConformanceCase(
                id: "auth.refuses-to-authenticate", title: "an authenticator that cannot authenticate gives noRequest",
                rules: ["AUTH-2"], explanation: "authenticateRequest fails: noRequest, and no connection is opened.",
                server: .plain(), resource: .intercepted(.authenticator(.refusing)),
                expected: Expectation(Outcome(kind: .noRequest), journal: JournalExpectation(connections: 0))),
            ConformanceCase(
                id: "auth.refuses-to-authenticate.tls-with-retry-policy",
                title: "an authenticator that cannot authenticate gives noRequest over HTTPS, whatever the retry policy",
                rules: ["AUTH-2"],
                explanation:
                    "As auth.refuses-to-authenticate, to an HTTPS server and behind maxRetries(3): a request that was never made is not a failed attempt, so nothing is retried and no connection (not even a TLS handshake) is opened.",
                server: .tls("valid-ec256", ok()), resource: .intercepted(.policy(.maxRetries(3)), .authenticator(.refusing)),
                expected: Expectation(Outcome(kind: .noRequest), journal: JournalExpectation(connections: 0))),
            ConformanceCase(
                id: "auth.refuses-after-401", title: "an authenticator that refuses after a 401 gives retry(custom)",
                rules: ["AUTH-3", "RETRY-5"],
                explanation: "evaluateFailedRequest answers noRetry(.custom(authenticationRefused)): .retry(.custom, one error).",
                server: .plain(status(401)), resource: .intercepted(.authenticator(.refusingAfterUnauthorized("t"))),
                expected: Expectation(
                    Outcome(kind: .retry, status: 401, retryError: "custom(authenticationRefused)", attempts: 1), journal: .requests(1))),
            ConformanceCase(
                id: "auth.with-retry-policy", title: "an authenticator's retry and a policy combine by priority",
                rules: ["AUTH-3", "PRIO-2"],
                explanation: "[authenticator, maxRetries(0)] on a 401: noRetry(.retries(0)) beats the authenticator's retry.",
                server: .plain(status(401), ok()),
                resource: .intercepted(.authenticator(.reauthenticating(first: "old", second: "new")), .policy(.maxRetries(0))),
                expected: Expectation(Outcome(kind: .retry, status: 401, retryError: "retries(0)", attempts: 1), journal: .requests(1))),
        ]
    }
}
