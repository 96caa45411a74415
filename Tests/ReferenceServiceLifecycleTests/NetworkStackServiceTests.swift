import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import ReferenceServiceLifecycle
import ServiceLifecycle
import ServiceLifecycleTestKit
import TestTraits
import Testing

/// The stack as a service: graceful shutdown drains the fetches in flight, then `run()` returns.
@Suite("NetworkStackService", .scaledTimeLimit(minutes: 1), .blocking)
struct NetworkStackServiceTests {

    /// Fetches `url` and waits for the completion.
    private func fetch(_ stack: Network.URLSessionNetworkStack, _ url: URL) async -> Result<
        Network.Value<Data, URLResponse>, Network.URLSessionError
    > {
        await withCheckedContinuation { continuation in
            let request = URLRequest(url: url)
            stack.fetch(resource: Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })) {
                continuation.resume(returning: $0)
            }
        }
    }

    @Test("graceful shutdown waits for the fetch in flight, then run() returns and new fetches are cancelled")
    func gracefulShutdownDrainsTheFetchInFlight() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(body: Data("slow".utf8), headDelay: .milliseconds(300)))
        let stack = Network.URLSessionNetworkStack(retryQueue: DispatchQueue(label: "service.retry"))
        let service = NetworkStackService(stack)

        let fetchCompleted = Locked(false)

        try await testGracefulShutdown { trigger in
            try await withThrowingTaskGroup(of: Bool.self) { group in
                group.addTask {
                    try await service.run()
                    return fetchCompleted.withLock { $0 }  // whether run() waited for the fetch
                }
                // Started from here, not from a task: the stack needs no thread of the test's to send it.
                let (inFlight, finished) = AsyncStream.makeStream(
                    of: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>.self)
                let request = URLRequest(url: server.url("/slow"))
                stack.fetch(resource: Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })) {
                    fetchCompleted.withLock { $0 = true }
                    finished.yield($0)
                    finished.finish()
                }
                _ = try await server.awaitRequest()  // the fetch is on the wire, its response 300 ms away
                trigger.triggerGracefulShutdown()

                var iterator = inFlight.makeAsyncIterator()
                guard let result = await iterator.next() else { return }
                let runWaited = try await group.next()

                #expect(runWaited == true)

                guard case .success(let value) = result else {
                    Issue.record("the fetch in flight must finish, got \(result)")
                    return
                }
                #expect(value.value == Data("slow".utf8))
                guard case .failure(.cancelled) = await fetch(stack, server.url("/late")) else {
                    Issue.record("a fetch after shutdown must be cancelled")
                    return
                }
            }
        }
    }

    @Test("cancelling the service's task throws at once, and the stack refuses new fetches")
    func cancellingThrowsAtOnce() async throws {
        let stack = Network.URLSessionNetworkStack(retryQueue: DispatchQueue(label: "service.retry"))
        let task = Task { try await NetworkStackService(stack).run() }

        task.cancel()

        await #expect(throws: CancellationError.self) { try await task.value }
        let server = try MockServer()
        guard case .failure(.cancelled) = await fetch(stack, server.url("/late")) else {
            Issue.record("a fetch after cancellation must be cancelled")
            return
        }
    }
}
