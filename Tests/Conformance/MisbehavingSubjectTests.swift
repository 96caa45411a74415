import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import TestTraits
import Testing
import ReferenceConformance

/// The reference stack, except that a fetch whose result `twice` picks completes a second time, at once.
private final class DoubleCompletingStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    let wrapped: Network.URLSessionNetworkStack
    let twice: @Sendable (FetchResult) -> Bool

    init(wrapping wrapped: Network.URLSessionNetworkStack, twice: @escaping @Sendable (FetchResult) -> Bool) {
        self.wrapped = wrapped
        self.twice = twice
    }

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        let twice = self.twice
        return wrapped.fetch(resource: resource) { result in
            completion(result)
            if twice(result) { completion(result) }
        }
    }
}

private struct DoubleCompletingSubject: ConformanceSubject {
    let reference = ReferenceSubject()
    let twice: @Sendable (DoubleCompletingStack.FetchResult) -> Bool

    var name: String { "double-completing" }
    func makeStack(for environment: StackEnvironment) throws -> DoubleCompletingStack {
        DoubleCompletingStack(wrapping: try reference.makeStack(for: environment), twice: twice)
    }
    func tearDown(_ stack: DoubleCompletingStack) { reference.tearDown(stack.wrapped) }
}

/// Cases whose action waits a grace period after the completion for a completion that must never come, so
/// the second completion is seen whenever it is made at once.
@Suite("A subject that completes a fetch twice gets CRASH for that case, and only that case", .scaledTimeLimit(minutes: 1), .blocking)
struct MisbehavingSubjectTests {

    private static func isCancelled(_ result: DoubleCompletingStack.FetchResult) -> Bool {
        if case .failure(.cancelled) = result { true } else { false }
    }

    @Test("completing an async fetch twice is CRASH for that case, not a crash of the run")
    func asyncDoubleCompletion() async throws {
        let cases = Catalogue.filter(Catalogue.all, glob: "cancel.async-task,body.success.text,error.http.status-404")
        let subject = DoubleCompletingSubject(twice: Self.isCancelled)
        let report = try await ConformanceRunner(subject: subject).run(cases)
        let verdicts = Dictionary(uniqueKeysWithValues: report.cases.map { ($0.id, $0.verdict) })
        #expect(verdicts == ["cancel.async-task": .crash, "body.success.text": .pass, "error.http.status-404": .pass])
        let failed = try #require(report.cases.first { $0.id == "cancel.async-task" })
        #expect(failed.reason?.contains("completed twice") == true, "\(failed.reason ?? "")")
        #expect(failed.completions == 2)
    }

    @Test("completing a fetch twice is CRASH, whatever the outcome")
    func doubleCompletion() throws {
        let testCase = try #require(Catalogue.all.first { $0.id == "cancel.after-completion" })
        let subject = DoubleCompletingSubject { if case .success = $0 { true } else { false } }
        let result = try ConformanceRunner(subject: subject).run(testCase)
        #expect(result.verdict == .crash)
        #expect(result.reason?.contains("completed twice") == true, "\(result.reason ?? "")")
    }

    @Test("sequential fetches that each complete once are not double completions")
    func sequentialFetches() throws {
        let testCase = try #require(Catalogue.all.first { $0.id == "body.keep-alive-reuse" })
        let result = try ConformanceRunner(subject: DoubleCompletingSubject { _ in false }).run(testCase)
        #expect(result.verdict == .pass, "\(result.reason ?? "")")
        #expect(result.completions == 3)
    }
}
