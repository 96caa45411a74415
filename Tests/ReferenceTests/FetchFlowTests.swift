import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import NetworkCore
import TestTraits
import Testing

@Suite("Fetch flow: interceptors, retries, completion", .scaledTimeLimit(minutes: 1), .blocking)
struct FetchFlowTests {

    @Test("interceptors run in array order for make, scheduled and success")
    func interceptorOrderOnSuccess() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        let order = OrderLog()
        let first = RecordingInterceptor(name: "a", order: order)
        let second = RecordingInterceptor(name: "b", order: order)
        #expect(harness.fetch(harness.resource(interceptors: [first, second])).success != nil)
        #expect(order.all == ["a.make", "b.make", "a.scheduled", "b.scheduled", "a.success", "b.success"])
    }

    @Test("a make-request interceptor can change the request that is sent")
    func interceptorChangesRequest() throws {
        struct AddHeader: URLSessionResourceInterceptor {
            func interceptMakeRequestResult(
                _ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler
            ) -> Cancelable {
                handler(
                    result.map {
                        var request = $0; request.setValue("yes", forHTTPHeaderField: "X-Intercepted"); return request
                    })
            }
        }
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        _ = harness.fetch(harness.resource(interceptors: [AddHeader()]))
        #expect(try harness.server.takeRequest().header("X-Intercepted") == "yes")
    }

    @Test("a failing interceptor gives noRequest and sends nothing")
    func failingInterceptorIsNoRequest() throws {
        struct Refuse: URLSessionResourceInterceptor {
            struct Nope: Error {}
            func interceptMakeRequestResult(
                _ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler
            ) -> Cancelable {
                handler(.failure(Nope()))
            }
        }
        let harness = try Harness()
        guard case .noRequest(let error)? = harness.fetch(harness.resource(interceptors: [Refuse()])).failure else {
            Issue.record("expected noRequest"); return
        }
        #expect(error is Refuse.Nope)
        #expect(harness.server.journal.isEmpty)
    }

    @Test("http, noData and url failures reach the failed hook with the state before the failure")
    func failuresReachInterceptors() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 500, body: Data("e".utf8)))
        let interceptor = RecordingInterceptor()
        guard case .http(.serverError(500), _, _)? = harness.fetch(harness.resource(interceptors: [interceptor])).failure else {
            Issue.record("expected http 500"); return
        }
        #expect(interceptor.hooks() == ["make", "scheduled", "failure"])
        #expect(interceptor.events.last?.retryCount == 0)
    }

    @Test("a retried fetch re-runs request making and every hook, with a new task each time, until it succeeds")
    func retryRerunsEverything() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 503))
        harness.server.enqueue(MockResponse(status: 503))
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let interceptor = RecordingInterceptor()
        let resource = harness.resource(interceptors: [interceptor, Network.URLSessionRetryPolicy.maxRetries(3)])
        #expect(harness.fetch(resource).success?.value == Data("ok".utf8))
        #expect(interceptor.hooks() == ["make", "scheduled", "failure", "make", "scheduled", "failure", "make", "scheduled", "success"])
        let failures = interceptor.events.filter { $0.hook == "failure" }
        #expect(failures.map(\.retryCount) == [0, 1])
        let tasks = interceptor.events.compactMap(\.taskIdentifier)
        #expect(Set(tasks.filter { _ in true }).count == 3)
    }

    @Test("maxRetries(2) makes exactly three attempts, then fails with retry and every attempt's error")
    func maxRetriesExhausted() throws {
        let harness = try Harness()
        for _ in 0..<3 { harness.server.enqueue(MockResponse(status: 503)) }
        let result = harness.fetch(harness.resource(interceptors: [Network.URLSessionRetryPolicy.maxRetries(2)]))
        guard case .retry(.retries(2), let state)? = result.failure else { Issue.record("expected retry(.retries(2))"); return }
        #expect(state.errors.count == 3)
        #expect(state.totalDelay == 0)
        #expect(result.failure?.statusCode == .serverError(503))
        #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 3)
    }

    @Test("delayed retries add only positive delays to the total")
    func totalDelayCountsPositiveDelays() throws {
        let harness = try Harness()
        for _ in 0..<3 { harness.server.enqueue(MockResponse(status: 503)) }
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let interceptor = RecordingInterceptor(actions: [.retryAfter(0.01), .retryAfter(0), .retryAfter(-1.337)])
        #expect(harness.fetch(harness.resource(interceptors: [interceptor])).success != nil)
        let failures = interceptor.events.filter { $0.hook == "failure" }
        #expect(failures.map(\.totalDelay) == [0, 0.01, 0.01])
    }

    @Test("a noRetry action fails with retry carrying the state with every error and the scheduled delays")
    func noRetryCarriesState() throws {
        let harness = try Harness()
        for _ in 0..<3 { harness.server.enqueue(MockResponse(status: 500)) }
        struct Boom: Error {}
        let interceptor = RecordingInterceptor(actions: [.retryAfter(0.01), .retryAfter(0.01), .noRetry(.custom(Boom()))])
        guard case .retry(.custom(let error), let state)? = harness.fetch(harness.resource(interceptors: [interceptor])).failure else {
            Issue.record("expected retry(.custom)"); return
        }
        #expect(error is Boom)
        #expect(state.errors.count == 3)
        #expect(abs(state.totalDelay - 0.02) < 1e-9)
    }

    @Test("the resource's priority closure combines the interceptors' actions as a left fold from none")
    func customPriority() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 500))
        let seen = Locked<[String]>([])
        let resource = Network.URLSessionResource(
            baseRequestMaking: harness.resource().baseRequestMaking,
            interceptors: [RecordingInterceptor(actions: [.retry]), RecordingInterceptor(actions: [.noRetry(.retries(9))])],
            retryActionPriority: { lhs, rhs in
                seen.withLock { $0.append("\(lhs)|\(rhs)") }
                return lhs  // the first action always wins: .none
            })
        guard case .http(.serverError(500), _, _)? = harness.fetch(resource).failure else {
            Issue.record("expected the raw http error"); return
        }
        #expect(seen.withLock { $0 } == ["none|retry", "none|noRetry(the policy allows 9 retries)"])
    }

    @Test("a fetch of the same resource value starts from an empty retry state")
    func resourceIsNotMutated() throws {
        let harness = try Harness()
        let interceptor = RecordingInterceptor(actions: [.retry])
        let resource = harness.resource(interceptors: [interceptor])
        harness.server.enqueue(MockResponse(status: 500))
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        _ = harness.fetch(resource)
        #expect(resource.retryState.errors.isEmpty)
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        _ = harness.fetch(resource)
        #expect(interceptor.events.last?.retryCount == 0)
    }

    @Test("fetchAndDecode decodes a model, or fails with decode")
    func fetchAndDecode() throws {
        struct Model: Decodable, Sendable { var name: String }
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data(#"{"name":"n"}"#.utf8)))
        harness.server.enqueue(MockResponse(status: 200, body: Data("{}".utf8)))
        let recorder = Recorder<Result<Network.Value<Model, URLResponse>, FetchAndDecodeError>>()
        harness.stack.fetchAndDecode(resource: harness.resource(), decoding: .json(Model.self)) { recorder.record($0) }
        #expect(recorder.next()?.success?.value.name == "n")
        harness.stack.fetchAndDecode(resource: harness.resource(), decoding: .json(Model.self)) { recorder.record($0) }
        guard case .decode? = recorder.next()?.failure else { Issue.record("expected decode"); return }
    }

    @Test("the async fetch returns the value")
    func asyncFetch() async throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("async".utf8)))
        let value = try await harness.stack.fetch(resource: harness.resource())
        #expect(value.value == Data("async".utf8))
    }
}
