import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import Synchronization
import Testing

/// The reference stack, except that cancelling a fetch only answers the caller: the fetch itself goes on, and
/// its own completion, when it comes, is dropped. So nothing completes twice, and only the hooks that run after
/// the cancel give the bug away.
private final class AbandoningStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    let wrapped: Network.URLSessionNetworkStack

    init(wrapping wrapped: Network.URLSessionNetworkStack) { self.wrapped = wrapped }

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        let answered = Atomic<Bool>(false)
        let deliver: @Sendable (FetchResult) -> Void = { result in
            if !answered.exchange(true, ordering: .acquiringAndReleasing) { completion(result) }
        }
        _ = wrapped.fetch(resource: resource, completion: deliver)
        return AnsweringCancelable { deliver(.failure(.cancelled)) }
    }
}

/// A cancelable that answers the caller and stops nothing.
private final class AnsweringCancelable: Cancelable {
    private let cancelled = Atomic<Bool>(false)
    private let answer: @Sendable () -> Void

    init(answer: @escaping @Sendable () -> Void) { self.answer = answer }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }

    func cancel() {
        if !cancelled.exchange(true, ordering: .acquiringAndReleasing) { answer() }
    }
}

private struct AbandoningSubject: ConformanceSubject {
    let reference = ReferenceSubject()
    var name: String { "abandoning" }
    func makeStack(for environment: StackEnvironment) throws -> AbandoningStack {
        AbandoningStack(wrapping: try reference.makeStack(for: environment))
    }
    func tearDown(_ stack: AbandoningStack) { reference.tearDown(stack.wrapped) }
}

@Suite("A cancel that leaves the fetch running fails the in-flight cancel cases", .timeLimit(.minutes(1)))
struct AbandonedCancelTests {

    @Test("a failed or scheduled hook after the cancel is FAIL (CANCEL-3)")
    func hookAfterCancelFails() async throws {
        let cases = Catalogue.filter(Catalogue.all, glob: "cancel.in-flight,cancel.in-flight.tls,cancel.in-flight.with-retry-policy")
        // The runner's own threads run the cases, so that no blocking wait holds the test's cooperative pool.
        let runner = try ConformanceRunner(subject: AbandoningSubject())
        let report = await runner.run(cases)
        #expect(report.cases.count == 3)
        for result in report.cases {
            #expect(result.verdict == .fail, "\(result.id)")
            #expect(result.completions == 1, "\(result.id)")
            #expect(
                result.mismatches.contains { $0.hasPrefix("no failed or scheduled hook after the cancel: got [\"a.failure\"") },
                "\(result.id): \(result.mismatches)")
        }
    }
}
