import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import TestTraits
import Testing

/// An observer that records what the engine tells it, in order.
private final class RecordingObserver: FetchObserver {
    private let seen = Locked<[String]>([])
    var events: [String] { seen.withLock { $0 } }

    func fetchStarted() { seen.withLock { $0.append("started") } }
    func retryScheduled(after error: Network.URLSessionError) {
        seen.withLock { $0.append("retry \(error.statusCode.map { "\($0.statusCode)" } ?? "\(error)")") }
    }
    func fetchCompleted(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>, duration: Duration) {
        #expect(duration >= .zero)
        let event = if case .success = result { "success" } else { "failure" }
        seen.withLock { $0.append(event) }
    }
}

/// The engine's observer hook, where a stack hangs its metrics.
@Suite("The fetch engine's observer", .scaledTimeLimit(minutes: 1))
struct FetchObserverTests {

    private let url = URL(string: "https://api.example.test/items")!

    private func outcome(_ status: Int) -> Network.TransportOutcome {
        .response(HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: [:])!, body: Data("x".utf8))
    }

    private func resource(_ interceptors: [URLSessionResourceInterceptor] = []) -> Network.URLSessionResource {
        let url = self.url
        return Network.URLSessionResource(
            baseRequestMaking: .init { handler in handler(.success(URLRequest(url: url))) }, interceptors: interceptors)
    }

    @Test("the observer sees a start, each retry with the error retried, and one completion")
    func startRetryCompletion() {
        let transport = ScriptedTransport()
        let observer = RecordingObserver()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global(), observer: observer)
        let completions = Completions()
        _ = engine.fetch(resource: resource([Network.URLSessionRetryPolicy.maxRetries(2)]), completion: completions.record)
        transport.complete(with: outcome(503))
        transport.complete(with: outcome(200))
        #expect(completions.count == 1)
        #expect(observer.events == ["started", "retry 503", "success"])
    }

    @Test("a retry the interceptors refuse is no retry, and a cancelled fetch completes once for the observer")
    func refusedRetryAndCancel() {
        let transport = ScriptedTransport()
        let observer = RecordingObserver()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global(), observer: observer)
        // The cancelled exchange stays pending in the scripted transport, holding the engine, until it stops.
        defer { transport.shutDown() }
        _ = engine.fetch(resource: resource(), completion: { _ in })
        transport.complete(with: outcome(500))
        let cancelled = engine.fetch(resource: resource(), completion: { _ in })
        cancelled.cancel()
        cancelled.cancel()
        #expect(observer.events == ["started", "failure", "started", "failure"])
    }

    @Test("a fetch refused by an invalidated engine still starts and completes for the observer")
    func refusedFetch() {
        let observer = RecordingObserver()
        let engine = Network.FetchEngine(transport: ScriptedTransport(), retryQueue: .global(), observer: observer)
        engine.invalidate()
        _ = engine.fetch(resource: resource(), completion: { _ in })
        #expect(observer.events == ["started", "failure"])
    }
}
