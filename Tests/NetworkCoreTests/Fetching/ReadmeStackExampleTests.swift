import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

/// The README's "your own HTTP library" example, as written there (with the test's transport as `MyTransport`).
private typealias MyTransport = ScriptedTransport

private final class MyStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    private let engine: Network.FetchEngine<MyTransport>
    init(transport: MyTransport) { engine = .init(transport: transport, retryQueue: .global()) }
    deinit { engine.cancelAll() }

    func fetch(resource: Resource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        engine.fetch(resource: resource, completion: completion)
    }
}

@Suite("The README's stack on a transport of one's own")
struct ReadmeStackExampleTests {

    @Test("the stack fetches through its transport, and releasing it cancels what is in flight")
    func example() {
        let transport = MyTransport()
        var stack: MyStack? = MyStack(transport: transport)
        let url = URL(string: "https://api.example.test/")!
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: url))) })
        let done = Completions()
        _ = stack!.fetch(resource: resource, completion: done.record)
        transport.complete(
            with: .response(HTTPURLResponse(url: url, statusCode: 200, httpVersion: nil, headerFields: nil)!, body: Data("hi".utf8)))
        #expect(done.count == 1)
        let pending = Completions()
        _ = stack!.fetch(resource: resource, completion: pending.record)
        stack = nil
        guard case .failure(.cancelled)? = pending.first else { Issue.record("expected cancelled"); return }
        #expect(transport.shutDownCount == 1)
    }
}
