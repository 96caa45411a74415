import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import Synchronization
import TestTraits
import Testing
import ReferenceConformance

/// A cancelable that reports the fetch cancelled at once but leaves the work underneath running: the
/// completion says `.cancelled`, yet a waiting retry still goes out.
private final class LeakyCancelable: Cancelable {
    private let cancelled = Atomic<Bool>(false)
    private let onCancel: @Sendable () -> Void

    init(onCancel: @escaping @Sendable () -> Void) { self.onCancel = onCancel }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        if !cancelled.exchange(true, ordering: .relaxed) { onCancel() }
    }
}

/// The reference stack behind a cancel that only pretends.
private final class LeakyCancelStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    let wrapped: Network.URLSessionNetworkStack

    init(wrapping wrapped: Network.URLSessionNetworkStack) { self.wrapped = wrapped }

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        let delivered = Atomic<Bool>(false)
        let once: @Sendable (FetchResult) -> Void = { result in
            if !delivered.exchange(true, ordering: .relaxed) { completion(result) }
        }
        _ = wrapped.fetch(resource: resource, completion: once)
        return LeakyCancelable { once(.failure(.cancelled)) }
    }
}

private struct LeakyCancelSubject: ConformanceSubject {
    let reference = ReferenceSubject()
    var name: String { "leaky-cancel" }
    func makeStack(for environment: StackEnvironment) throws -> LeakyCancelStack {
        LeakyCancelStack(wrapping: try reference.makeStack(for: environment))
    }
    func tearDown(_ stack: LeakyCancelStack) { reference.tearDown(stack.wrapped) }
}

/// A cancel that answers the caller but leaves the fetch running: nothing completes twice, so only what reaches
/// the server after the cancel, or the hooks that run after it, give it away.
@Suite("A cancel that leaves the fetch running is caught", .scaledTimeLimit(minutes: 1), .blocking)
struct LeakyCancelTests {

    @Test("cancelling while a retry waits, the retry that still reaches the server fails the case")
    func retryAfterCancelIsCaught() async throws {
        let cases = Catalogue.filter(Catalogue.all, glob: "cancel.retry-waiting.*")
        let report = try await ConformanceRunner(subject: LeakyCancelSubject()).run(cases)
        #expect(report.cases.count == 4, "HTTP/1.1 and HTTP/2")
        for result in report.cases {
            #expect(result.verdict == .fail, "\(result.id): \(result.reason ?? "")")
            #expect(result.mismatches.contains("journal: expected 2 requests, got 3"), "\(result.id): \(result.mismatches)")
        }
    }

    @Test("a failed or scheduled hook after the cancel is FAIL (CANCEL-3)")
    func hookAfterCancelFails() async throws {
        let cases = Catalogue.filter(Catalogue.all, glob: "cancel.in-flight,cancel.in-flight.tls,cancel.in-flight.with-retry-policy")
        // The runner's own threads run the cases, so that no blocking wait holds the test's cooperative pool.
        let runner = try ConformanceRunner(subject: LeakyCancelSubject())
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
