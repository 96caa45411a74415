import Foundation
import NetworkCore
import Testing

private struct Failure: Error {}

private func state(retries: Int, totalDelay: Retry.Delay = 0) -> Retry.State {
    Retry.State(errors: Array(repeating: Failure(), count: retries), totalDelay: totalDelay)
}

private func evaluate(_ policy: Retry.Policy<Int>, _ state: Retry.State) -> String {
    describe(policy.shouldRetry(with: Failure(), state: state, metadata: 1337))
}

func describe(_ action: Retry.Action) -> String {
    switch action {
    case .none: return "none"
    case .retry: return "retry"
    case .retryAfter(let delay): return "retryAfter(\(delay))"
    case .noRetry(.retries(let max)): return "noRetry(retries \(max))"
    case .noRetry(.delay(let max)): return "noRetry(delay \(max))"
    case .noRetry(.custom): return "noRetry(custom)"
    }
}

@Suite("Retry.Policy")
struct RetryPolicyTests {

    @Test(
        "maxRetries(N) retries while fewer than N errors were seen, and stops at exactly N",
        arguments: [(0, "retry"), (1, "retry"), (2, "retry"), (3, "noRetry(retries 3)"), (4, "noRetry(retries 3)")])
    func maxRetriesBoundary(previousErrors: Int, expected: String) {
        #expect(evaluate(.maxRetries(3), state(retries: previousErrors)) == expected)
    }

    @Test("maxRetries(0) never retries")
    func maxRetriesZero() {
        #expect(evaluate(.maxRetries(0), .empty) == "noRetry(retries 0)")
    }

    @Test("constant backoff retries after its delay until maxRetries")
    func constantBackoffMaxRetries() {
        let policy = Retry.Policy<Int>.backoff(.constant(delay: 0.1337, until: .maxRetries(3)))
        #expect(evaluate(policy, state(retries: 2)) == "retryAfter(0.1337)")
        #expect(evaluate(policy, state(retries: 3)) == "noRetry(retries 3)")
    }

    @Test("constant backoff with maxDelay stops once the scheduled total reaches the limit, not before")
    func constantBackoffMaxDelayBoundary() {
        let policy = Retry.Policy<Int>.backoff(.constant(delay: 0.01337, until: .maxDelay(0.1337)))
        #expect(evaluate(policy, state(retries: 1, totalDelay: 0.12033)) == "retryAfter(0.01337)")
        #expect(evaluate(policy, state(retries: 1, totalDelay: 0.1337)) == "noRetry(delay 0.1337)")
        #expect(evaluate(policy, state(retries: 1, totalDelay: 0.135037)) == "noRetry(delay 0.1337)")
    }

    @Test("maxDelay(0) never retries")
    func maxDelayZero() {
        #expect(evaluate(.backoff(.constant(delay: 1, until: .maxDelay(0))), .empty) == "noRetry(delay 0.0)")
    }

    @Test("exponential backoff asks scale for the 1-based number of the next retry")
    func exponentialScaleArguments() {
        let policy = Retry.Policy<Int>.backoff(
            .exponential(
                baseDelay: 0.1337,
                scale: { base, retry in
                    #expect(base == 0.1337)
                    #expect(retry == 3)
                    return 0.7331
                }, until: .maxRetries(5)))
        #expect(evaluate(policy, state(retries: 2)) == "retryAfter(0.7331)")
    }

    @Test("exponential backoff with maxRetries stops without calling scale")
    func exponentialStopsWithoutScale() {
        let policy = Retry.Policy<Int>.backoff(
            .exponential(
                baseDelay: 1,
                scale: { _, _ in
                    Issue.record("scale must not be called")
                    return 1
                }, until: .maxRetries(3)))
        #expect(evaluate(policy, state(retries: 4)) == "noRetry(retries 3)")
    }

    @Test("exponential backoff caps each delay at maxDelay")
    func exponentialCapsEachDelay() {
        let policy = Retry.Policy<Int>.backoff(.exponential(baseDelay: 0.1, scale: { _, _ in 0.9 }, until: .maxDelay(0.7331)))
        #expect(evaluate(policy, state(retries: 1, totalDelay: 0.1)) == "retryAfter(0.7331)")
    }

    @Test("the documented exponential example gives 0.1, 0.2, 0.3 then stops at maxDelay 0.4")
    func documentedExponentialExample() {
        let policy = Retry.Policy<Int>.backoff(.exponential(baseDelay: 0.1, scale: { $0 * Double($1) }, until: .maxDelay(0.4)))
        var current = Retry.State.empty
        var actions: [String] = []
        for _ in 0..<4 {
            let action = policy.shouldRetry(with: Failure(), state: current, metadata: 0)
            actions.append(describe(action))
            if case .retryAfter(let delay) = action { current.totalDelay += delay }
            current.errors.append(Failure())
        }
        #expect(actions.prefix(2) == ["retryAfter(0.1)", "retryAfter(0.2)"])
        #expect(actions[2].hasPrefix("retryAfter(0.3"))
        #expect(actions[3] == "noRetry(delay 0.4)")
    }

    @Test("a custom rule receives the error, the state and the metadata, and its action passes through")
    func customRulePassesThrough() {
        let policy = Retry.Policy<Int>.custom { error, state, metadata in
            #expect(error is Failure)
            #expect(state.retryCount == 2)
            #expect(metadata == 1337)
            return .retryAfter(1.337)
        }
        #expect(evaluate(policy, state(retries: 2)) == "retryAfter(1.337)")
    }

    @Test("the state counts attempts as errors plus one and retries as errors")
    func stateCounts() {
        #expect(Retry.State.empty.attemptCount == 1)
        #expect(Retry.State.empty.retryCount == 0)
        #expect(Retry.State.empty.totalDelay == 0)
        #expect(state(retries: 1).attemptCount == 2)
        #expect(state(retries: 1).retryCount == 1)
    }
}

@Suite("Retry.Action.mostPrioritary")
struct MostPrioritaryTests {

    static let table: [(Retry.Action, Retry.Action, String)] = [
        (.none, .none, "none"),
        (.none, .retry, "retry"), (.retry, .none, "retry"),
        (.none, .retryAfter(2), "retryAfter(2.0)"), (.retryAfter(2), .none, "retryAfter(2.0)"),
        (.retry, .retry, "retry"),
        (.retry, .retryAfter(2), "retryAfter(2.0)"), (.retryAfter(2), .retry, "retryAfter(2.0)"),
        (.retryAfter(1.337), .retryAfter(13.37), "retryAfter(13.37)"), (.retryAfter(13.37), .retryAfter(1.337), "retryAfter(13.37)"),
        (.none, .noRetry(.retries(1)), "noRetry(retries 1)"), (.noRetry(.retries(1)), .none, "noRetry(retries 1)"),
        (.retry, .noRetry(.retries(1)), "noRetry(retries 1)"), (.noRetry(.retries(1)), .retryAfter(5), "noRetry(retries 1)"),
        (.noRetry(.delay(1.337)), .noRetry(.retries(1337)), "noRetry(delay 1.337)"),
        (.noRetry(.retries(1337)), .noRetry(.delay(1.337)), "noRetry(retries 1337)"),
    ]

    @Test("follows the priority table: noRetry > retryAfter (longer wins) > retry > none", arguments: table)
    func priorityTable(lhs: Retry.Action, rhs: Retry.Action, expected: String) {
        #expect(describe(Retry.Action.mostPrioritary(lhs, rhs)) == expected)
    }

    @Test("between two equal retryAfter delays, rhs wins")
    func equalDelaysRhsWins() {
        let nan = Retry.Action.mostPrioritary(.retryAfter(.nan), .retryAfter(3))
        #expect(describe(nan) == "retryAfter(3.0)")
    }
}
