import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import NetworkCore
import TestTraits
import Testing

private typealias FetchResult = Result<Network.Value<Data, URLResponse>, Network.URLSessionError>

private func isCancelled(_ result: FetchResult?) -> Bool {
    if case .cancelled? = result?.failure { return true }
    return false
}

/// Waits until the stack's transport thread has run everything queued before (a fetch behind them completes).
private func drain(_ harness: Harness) {
    harness.server.enqueue(MockResponse(status: 200, body: Data("drain".utf8)))
    _ = harness.fetch(harness.resource())
}

@Suite("Cancellation completes the fetch exactly once with .cancelled", .scaledTimeLimit(minutes: 1), .blocking)
struct CancellationTests {

    @Test("cancelling while the request is in flight")
    func cancelInFlight() throws {
        let harness = try Harness()
        harness.server.enqueue(.fault(.stallAfterRequest))
        let recorder = Recorder<FetchResult>()
        let cancelable = harness.stack.fetch(resource: harness.resource()) { recorder.record($0) }
        _ = try harness.server.takeRequest()
        cancelable.cancel()
        #expect(isCancelled(recorder.next()))
        #expect(cancelable.isCancelled)
        drain(harness)
        #expect(recorder.all.count == 1)
    }

    @Test("cancelling while request making is pending")
    func cancelDuringRequestMaking() throws {
        let harness = try Harness()
        let pending = Locked<Network.BaseRequestMaking<URLRequest>.Handler?>(nil)
        let resource = Network.URLSessionResource(
            baseRequestMaking: .init { handler in
                pending.withLock { $0 = handler }
                return DummyCancelable()
            })
        let recorder = Recorder<FetchResult>()
        let cancelable = harness.stack.fetch(resource: resource) { recorder.record($0) }
        cancelable.cancel()
        #expect(isCancelled(recorder.next()))
        // The maker answers late: nothing is sent, and the completion does not run again.
        _ = pending.withLock { $0 }?(.success(URLRequest(url: harness.server.url())))
        drain(harness)
        #expect(recorder.all.count == 1)
        #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 1)
    }

    @Test("cancelling while a delayed retry waits")
    func cancelDuringRetryDelay() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 503))
        let scheduled = Recorder<Int>()
        struct Observe: URLSessionResourceInterceptor {
            let scheduled: Recorder<Int>
            func interceptFailedTask(
                withIdentifier taskIdentifier: Int, request: URLRequest, data: Data?, response: URLResponse?,
                error: Network.URLSessionError, retryState: Retry.State
            ) -> Retry.Action {
                scheduled.record(taskIdentifier)
                return .retryAfter(30)
            }
        }
        let recorder = Recorder<FetchResult>()
        let cancelable = harness.stack.fetch(resource: harness.resource(interceptors: [Observe(scheduled: scheduled)])) {
            recorder.record($0)
        }
        #expect(scheduled.next() != nil)
        cancelable.cancel()
        #expect(isCancelled(recorder.next()))
        drain(harness)
        #expect(recorder.all.count == 1)
    }

    @Test("cancelling after completion does nothing")
    func cancelAfterCompletion() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        let recorder = Recorder<FetchResult>()
        let cancelable = harness.stack.fetch(resource: harness.resource()) { recorder.record($0) }
        #expect(recorder.next()?.success != nil)
        cancelable.cancel()
        drain(harness)
        #expect(recorder.all.count == 1)
    }

    @Test("releasing the stack mid-flight completes the fetch with cancelled")
    func stackReleasedMidFlight() throws {
        let server = try MockServer(tls: .init(identity: Fixtures.identity("valid-ec256")))
        server.enqueue(.fault(.stallAfterRequest))
        let recorder = Recorder<FetchResult>()
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        var stack: Network.URLSessionNetworkStack? = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: .global())
        let request = URLRequest(url: server.url())
        stack!.fetch(resource: .init(baseRequestMaking: .init { $0(.success(request)) })) { recorder.record($0) }
        _ = try server.takeRequest()
        stack = nil
        #expect(isCancelled(recorder.next()))
        #expect(recorder.next(timeout: 0.2) == nil)
    }

    @Test("cancelling the task of an async fetch cancels the fetch")
    func asyncTaskCancellation() async throws {
        let harness = try Harness()
        harness.server.enqueue(.fault(.stallAfterRequest))
        let task = Task(executorPreference: DispatchTaskExecutor()) { try await harness.stack.fetch(resource: harness.resource()) }
        _ = try harness.server.takeRequest()
        task.cancel()
        do {
            _ = try await task.value
            Issue.record("expected cancellation")
        } catch {
            guard case Network.URLSessionError.cancelled = error else { Issue.record("expected .cancelled, got \(error)"); return }
        }
    }

    @Test("finishFetchesAndInvalidateSession lets fetches in flight finish and cancels later ones")
    func invalidateLetsInFlightFinish() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("late".utf8), headDelay: .milliseconds(200)))
        let recorder = Recorder<FetchResult>()
        harness.stack.fetch(resource: harness.resource()) { recorder.record($0) }
        _ = try harness.server.takeRequest()
        harness.stack.finishFetchesAndInvalidateSession()
        let later = Recorder<FetchResult>()
        harness.stack.fetch(resource: harness.resource()) { later.record($0) }
        #expect(isCancelled(later.next()))
        #expect(recorder.next()?.success?.value == Data("late".utf8))
    }
}
