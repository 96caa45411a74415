import NetworkCore
import Testing

@Suite("Which unanswered requests a stack sends again, and how often")
struct ReplayRuleTests {

    @Test("a refused stream or one a GOAWAY left out goes again whatever its method: the server did not process it")
    func unprocessedGoesAgainWhateverTheMethod() {
        for cause in [ReplayRule.Cause.refusedStream, .leftOutByGoAway] {
            var rule = ReplayRule()
            #expect(rule.decide(cause, isIdempotent: false) == .sendAgain, "\(cause)")
        }
    }

    @Test("a request whose fate is not known goes again only if its method is idempotent")
    func unknownFateGoesAgainOnlyIfIdempotent() {
        for cause in [ReplayRule.Cause.endedByGoAway, .reusedConnectionLost] {
            var post = ReplayRule()
            #expect(post.decide(cause, isIdempotent: false) == .lostAfterSending, "\(cause)")
            var get = ReplayRule()
            #expect(get.decide(cause, isIdempotent: true) == .sendAgain, "\(cause)")
        }
    }

    @Test("at most two sends again in a row: the third unanswered send ends the fetch, naming three sends")
    func boundedToTwoReplaysInARow() {
        var rule = ReplayRule()
        let decisions = (0..<3).map { _ in rule.decide(.refusedStream, isIdempotent: true) }
        #expect(decisions == [.sendAgain, .sendAgain, .exhausted(sends: 3)])
    }

    @Test("a response starts the count again")
    func aResponseStartsTheCountAgain() {
        var rule = ReplayRule()
        _ = rule.decide(.refusedStream, isIdempotent: true)
        _ = rule.decide(.refusedStream, isIdempotent: true)
        rule.responseArrived()
        #expect(rule.decide(.refusedStream, isIdempotent: true) == .sendAgain)
        #expect(rule.replays == 1)
    }

    @Test("a request that may not go again leaves the count as it was")
    func aRefusalCountsNothing() {
        var rule = ReplayRule()
        _ = rule.decide(.reusedConnectionLost, isIdempotent: false)
        #expect(rule.replays == 0)
    }
}
