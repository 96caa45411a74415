import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

/// The engine that drives the fetch state machine, over a transport the test ends by hand.
@Suite("The fetch engine")
struct FetchEngineTests {

    private let url = URL(string: "https://api.example.test/items")!

    private func resource(interceptors: [URLSessionResourceInterceptor] = []) -> Network.URLSessionResource {
        let url = self.url
        return Network.URLSessionResource(
            baseRequestMaking: .init { handler in handler(.success(URLRequest(url: url))) },
            interceptors: interceptors)
    }

    private func ok(_ body: String = "ok") -> Network.TransportOutcome {
        .response(HTTPURLResponse(url: url, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: [:])!, body: Data(body.utf8))
    }

    @Test("a fetch sends its request and completes once with the transport's response")
    func completesOnce() throws {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let completions = Completions()
        _ = engine.fetch(resource: resource(), completion: completions.record)
        #expect(transport.sent.map(\.url) == [url])
        transport.complete(with: ok("body"))
        #expect(completions.count == 1)
        #expect(try completions.first?.get().value == Data("body".utf8))
    }

    @Test("an error decoding that cancels its own fetch runs outside the engine's lock: the fetch completes once, cancelled")
    func errorDecodingCancelsItsFetch() {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let completions = Completions()
        let handle = Locked<(any Cancelable)?>(nil)
        let url = self.url
        let cancelling = Network.URLSessionResource(
            baseRequestMaking: .init { handler in handler(.success(URLRequest(url: url))) },
            errorDecoding: .init { _, _ in
                // What a user's decoding may do: reach back into the fetch it decodes for (it deadlocked inside the lock).
                handle.withLock { $0 }?.cancel()
                return nil
            })
        handle.withLock { $0 = engine.fetch(resource: cancelling, completion: completions.record) }
        transport.complete(
            with: .response(HTTPURLResponse(url: url, statusCode: 500, httpVersion: "HTTP/1.1", headerFields: [:])!, body: nil))
        #expect(completions.count == 1)
        guard case .failure(.cancelled)? = completions.first else { Issue.record("expected cancelled"); return }
    }

    @Test("cancelling completes at once with cancelled, stops the exchange, and a late outcome changes nothing")
    func cancelInFlight() {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let completions = Completions()
        let fetch = engine.fetch(resource: resource(), completion: completions.record)
        fetch.cancel()
        #expect(fetch.isCancelled)
        #expect(transport.cancelledCount == 1)
        transport.complete(with: ok())
        #expect(completions.count == 1)
        guard case .failure(.cancelled)? = completions.first else { Issue.record("expected cancelled"); return }
    }

    @Test("a fetch waiting for a delayed retry completes when cancelled, and nothing keeps it or its resource alive")
    func cancelledRetryReleasesEverything() async throws {
        let transport = ScriptedTransport()
        var engine: Network.FetchEngine<ScriptedTransport>? = Network.FetchEngine(transport: transport, retryQueue: .global())
        var interceptor: FixedRetryInterceptor? = FixedRetryInterceptor(.retryAfter(3600))
        weak let weakInterceptor = interceptor
        weak let weakEngine = engine
        let completions = Completions()
        var fetch: Cancelable? = engine!.fetch(resource: resource(interceptors: [interceptor!]), completion: completions.record)
        interceptor = nil
        transport.complete(with: .failure(URLError(.timedOut)))
        #expect(completions.count == 0)  // waiting an hour for the retry
        fetch?.cancel()
        #expect(completions.count == 1)
        fetch = nil
        engine = nil
        #expect(weakEngine == nil)
        #expect(weakInterceptor == nil)
    }

    @Test("a delayed retry sends again after its delay, and completes once")
    func delayedRetry() async throws {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let completions = Completions()
        let retry = FixedRetryInterceptor(.retryAfter(0.01))
        _ = engine.fetch(resource: resource(interceptors: [retry]), completion: completions.record)
        transport.complete(with: .failure(URLError(.timedOut)))
        let deadline = ContinuousClock.now + .seconds(10)
        while transport.pendingCount == 0, ContinuousClock.now < deadline { await Task.yield() }
        #expect(transport.sent.count == 2)
        transport.complete(with: ok())
        #expect(completions.count == 1)
    }

    @Test("shutdown waits for the fetches in flight, then stops the transport")
    func gracefulShutdown() async throws {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let completions = Completions()
        _ = engine.fetch(resource: resource(), completion: completions.record)
        let shutdown = Task { await engine.shutdown() }
        // A fetch started during the shutdown is refused with cancelled.
        let late = Completions()
        while late.count == 0 {
            _ = engine.fetch(resource: resource(), completion: late.record)
            await Task.yield()
        }
        guard case .failure(.cancelled)? = late.first else { Issue.record("expected cancelled"); return }
        #expect(transport.shutDownCount == 0)
        // Every fetch accepted before the shutdown began must finish first.
        while transport.pendingCount > 0 { transport.complete(with: ok()) }
        await shutdown.value
        #expect(completions.count == 1)
        #expect(transport.shutDownCount == 1)
    }

    @Test("cancelAll completes every fetch with cancelled and stops the transport once")
    func cancelAll() {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let completions = (0..<5).map { _ in Completions() }
        for completion in completions { _ = engine.fetch(resource: resource(), completion: completion.record) }
        engine.cancelAll()
        for completion in completions {
            #expect(completion.count == 1)
            guard case .failure(.cancelled)? = completion.first else { Issue.record("expected cancelled"); return }
        }
        #expect(transport.shutDownCount == 1)
    }

    @Test("a cancel racing the transport's outcome still completes exactly once")
    func cancelRace() async {
        let transport = ScriptedTransport()
        let engine = Network.FetchEngine(transport: transport, retryQueue: .global())
        let all = (0..<200).map { _ in Completions() }
        let fetches = all.map { engine.fetch(resource: resource(), completion: $0.record) }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for _ in fetches { transport.complete(with: ok()) } }
            group.addTask { for fetch in fetches { fetch.cancel() } }
        }
        #expect(all.allSatisfy { $0.count == 1 })
    }
}

/// The `async` variant over a stack that breaks the exactly-once rule.
@Suite("The async fetch")
struct AsyncFetchTests {

    /// A broken stack that completes every fetch twice, first with a success.
    private final class TwiceCompletingStack: NetworkStack {
        typealias Resource = Network.URLSessionResource
        typealias Remote = Data
        typealias Request = URLRequest
        typealias Response = URLResponse
        typealias FetchError = Network.URLSessionError

        func fetch(resource: Resource, completion: @escaping FetchCompletionClosure) -> Cancelable {
            let response = URLResponse(
                url: URL(string: "https://example.test/")!, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
            completion(.success(Network.Value(value: Data("first".utf8), response: response)))
            completion(.failure(.cancelled))
            return DummyCancelable()
        }
    }

    @Test("a stack that completes twice gives the first result and does not crash its caller")
    func doubleCompletion() async throws {
        let resource = Network.URLSessionResource(baseRequestMaking: .init { _ in DummyCancelable() })
        let value = try await TwiceCompletingStack().fetch(resource: resource)
        #expect(value.value == Data("first".utf8))
    }
}
