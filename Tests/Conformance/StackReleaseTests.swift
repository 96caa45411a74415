import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import NetworkCore
import TestTraits
import Testing
import ReferenceConformance

/// Weak references to what a subject made for its cases.
private final class Made: Sendable {
    private struct Weak: @unchecked Sendable {  // only read and written under the mutex
        weak var object: AnyObject?
    }
    private let objects = Locked<[Weak]>([])

    func add(_ object: AnyObject) { objects.withLock { $0.append(Weak(object: object)) } }
    var count: Int { objects.withLock { $0.count } }
    var alive: Int { objects.withLock { $0.filter { $0.object != nil }.count } }
}

/// A stack whose fetch handle keeps the stack alive until the handle goes: a common, legitimate design,
/// which leaks the stack if whoever holds the handle is itself held by the stack.
private final class HandleRetainsStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    private final class Handle: Cancelable {
        let stack: HandleRetainsStack
        let wrapped: any Cancelable
        init(stack: HandleRetainsStack, wrapped: any Cancelable) {
            self.stack = stack
            self.wrapped = wrapped
        }
        var isCancelled: Bool { wrapped.isCancelled }
        func cancel() { wrapped.cancel() }
    }

    let wrapped: Network.URLSessionNetworkStack

    init(wrapping wrapped: Network.URLSessionNetworkStack) { self.wrapped = wrapped }

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        Handle(stack: self, wrapped: wrapped.fetch(resource: resource, completion: completion))
    }
}

/// The reference stack behind ``HandleRetainsStack``; records the stacks and the retry queues it is given
/// (the reference stack's engine holds the queue, so a leaked engine keeps it alive).
private struct TrackingSubject: ConformanceSubject {
    let reference = ReferenceSubject()
    let stacks = Made()
    let retryQueues = Made()

    var name: String { "tracking" }
    func makeStack(for environment: StackEnvironment) throws -> HandleRetainsStack {
        let stack = HandleRetainsStack(wrapping: try reference.makeStack(for: environment))
        stacks.add(stack)
        retryQueues.add(environment.retryQueue)
        return stack
    }
    func tearDown(_ stack: HandleRetainsStack) { reference.tearDown(stack.wrapped) }
}

@Suite("The runner releases every stack it asked for", .blocking)
struct StackReleaseTests {

    @Test(
        "a stack and everything it holds are released once its case completes",
        arguments: [
            "body.success.text",  // no handler
            "trust.handler.default-handling-valid",  // a trust handler that records challenges
            "pin.mismatch.no-pin-matched",  // a pinning handler that refuses
            "cancel.in-flight",  // the case keeps the fetch's cancelable
            "cancel.request-making",  // the case keeps the pending request maker
            "pin.reused.policy-removed",  // a handler reconfigured between two fetches
        ])
    func released(id: String) throws {
        let testCase = try #require(Catalogue.all.first { $0.id == id })
        let subject = TrackingSubject()
        let result = try ConformanceRunner(subject: subject).run(testCase)
        #expect(result.verdict == .pass, "\(result.reason ?? "")")
        #expect(subject.stacks.count == 1)
        #expect(subject.stacks.alive == 0, "the stack of \(id) outlived its case")
        #expect(subject.retryQueues.alive == 0, "the reference stack's engine for \(id) outlived its case")
    }

    @Test("no stack of a case with a challenge handler outlives the run")
    func releasedAfterRun() async throws {
        // A case whose handler must fail to build never asks for a stack.
        let cases = Catalogue.all.filter { $0.stack.handler != nil && $0.expected.outcome.kind != .configurationError }
        let subject = TrackingSubject()
        let report = try await ConformanceRunner(subject: subject).run(cases)
        #expect(report.summary.mustFailures == 0)
        #expect(subject.stacks.count == cases.count)
        #expect(subject.stacks.alive == 0)
        #expect(subject.retryQueues.alive == 0)
    }
}
