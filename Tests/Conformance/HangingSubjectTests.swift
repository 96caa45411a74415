import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import TestTraits
import Testing

/// A stack whose fetches never complete.
private final class SilentStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        DummyCancelable()
    }
}

private struct SilentSubject: ConformanceSubject {
    var name: String { "silent" }
    func makeStack(for environment: StackEnvironment) throws -> SilentStack { SilentStack() }
}

@Suite("Hanging cases", .scaledTimeLimit(minutes: 1), .blocking)
struct HangingSubjectTests {

    @Test("many hanging cases cost the watchdog once per round of concurrent cases, not once per case")
    func manyHangs() throws {
        let cases = Array(Catalogue.filter(Catalogue.all, glob: "error.http.*").prefix(12))
        let started = ContinuousClock.now
        let report = try ConformanceRunner(subject: SilentSubject(), concurrency: 6, watchdog: 2).run(cases)
        let elapsed = ContinuousClock.now - started
        #expect(report.cases.allSatisfy { $0.verdict == .hang })
        // Two rounds of six at 2 s each; a watchdog paid case by case would be 24 s.
        #expect(elapsed < TestTimeScale.bound(.seconds(9), below: .seconds(24)))
    }

    @Test("a case that sets a 1 s timeout is HANG after its own bound, not after the whole watchdog")
    func ownBound() throws {
        let testCase = try #require(Catalogue.all.first { $0.id == "transport.stall-at-accept" })
        let started = ContinuousClock.now
        let result = try ConformanceRunner(subject: SilentSubject(), watchdog: 60).run(testCase)
        let elapsed = ContinuousClock.now - started
        #expect(result.verdict == .hang)
        #expect(result.reason?.contains("within 5 s") == true, "\(result.reason ?? "")")
        #expect(elapsed < TestTimeScale.bound(.seconds(10), below: .seconds(60)))
    }
}
