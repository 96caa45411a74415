import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Testing

/// The NIO stack's HTTP/1.1 against the plain MockServer on loopback.
@Suite("NIO stack: HTTP", .timeLimit(.minutes(1)))
struct NIOStackHTTPTests {

    private static func fetch(_ request: URLRequest) async -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        let stack = NIONetworkStack(retryQueue: DispatchQueue(label: "test.retry"))
        defer { stack.invalidateAndCancel() }
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })
        do { return .success(try await stack.fetch(resource: resource)) } catch { return .failure(error) }
    }

    @Test("a plain fetch sends the method, path, query and headers set, and returns the body")
    func plainFetch() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 200, body: Data("plain".utf8)))
        var request = URLRequest(url: server.url("/items?b=2&a=1"), timeoutInterval: 10)
        request.setValue("yes", forHTTPHeaderField: "X-Test")

        let value = try await Self.fetch(request).get()
        let recorded = try await server.awaitRequest()

        #expect(value.value == Data("plain".utf8))
        #expect(recorded.method == "GET")
        #expect(recorded.target == "/items?b=2&a=1")
        #expect(recorded.header("X-Test") == "yes")
    }

    @Test("a header value holding CR LF is refused with badURL before anything is sent")
    func headerInjectionRefused() async throws {
        let server = try MockServer()
        var request = URLRequest(url: server.url("/"), timeoutInterval: 10)
        // setValue drops such a value on Linux; the dictionary keeps it, as a careless caller would send it.
        request.allHTTPHeaderFields = ["X-Test": "a\r\nInjected: 1"]

        let result = await Self.fetch(request)

        guard case .failure(.url(let error)) = result else { Issue.record("expected a URLError, got \(result)"); return }
        #expect(error.code == .badURL)
        #expect(server.journal.isEmpty)
    }

    @Test("a 303 after a POST is followed with a GET without the body")
    func seeOtherAfterPostBecomesGet() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 303, headers: [("Location", "/result")]))
        server.enqueue(MockResponse(status: 200, body: Data("done".utf8)))
        var request = URLRequest(url: server.url("/order"), timeoutInterval: 10)
        request.httpMethod = "POST"
        request.httpBody = Data("item=1".utf8)

        let value = try await Self.fetch(request).get()
        let first = try await server.awaitRequest()
        let second = try await server.awaitRequest()

        #expect(value.value == Data("done".utf8))
        #expect(first.method == "POST")
        #expect(second.method == "GET")
        #expect(second.target == "/result")
        #expect(second.body.isEmpty)
    }

    @Test("a redirect to another port drops Authorization and Cookie; one within the origin keeps them (HTTP-20)")
    func redirectCredentialsStayWithTheirOrigin() async throws {
        let origin = try MockServer()
        let other = try MockServer()
        origin.enqueue(MockResponse(status: 302, headers: [("Location", "/same")]))
        origin.enqueue(MockResponse(status: 302, headers: [("Location", other.url("/other").absoluteString)]))
        other.enqueue(MockResponse(status: 200, body: Data("landed".utf8)))
        var request = URLRequest(url: origin.url("/start"), timeoutInterval: 10)
        request.setValue("Bearer s3cret", forHTTPHeaderField: "Authorization")
        request.setValue("session=s3cret", forHTTPHeaderField: "Cookie")

        let value = try await Self.fetch(request).get()
        _ = try await origin.awaitRequest()
        let sameOrigin = try await origin.awaitRequest()
        let otherOrigin = try await other.awaitRequest()

        #expect(value.value == Data("landed".utf8))
        #expect(sameOrigin.header("Authorization") == "Bearer s3cret")
        #expect(sameOrigin.header("Cookie") == "session=s3cret")
        // The same host, another port: another origin. The stack once dropped Authorization only on a change of host,
        // and Cookie never.
        #expect(otherOrigin.header("Authorization") == nil)
        #expect(otherOrigin.header("Cookie") == nil)
    }

    @Test("a body larger than the configured limit fails with dataLengthExceedsMaximum")
    func bodyOverLimitRefused() async throws {
        let server = try MockServer()
        server.enqueue(MockResponse(status: 200, body: Data(count: 2048)))
        var configuration = NIONetworkStack.Configuration()
        configuration.maximumResponseSize = 1024
        let stack = NIONetworkStack(configuration: configuration, retryQueue: DispatchQueue(label: "test.retry"))
        defer { stack.invalidateAndCancel() }
        let request = URLRequest(url: server.url("/big"), timeoutInterval: 10)

        do {
            _ = try await stack.fetch(resource: Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) }))
            Issue.record("the fetch succeeded")
        } catch {
            guard case .url(let urlError) = error else { Issue.record("expected a URLError, got \(error)"); return }
            #expect(urlError.code == .dataLengthExceedsMaximum)
        }
    }
}
