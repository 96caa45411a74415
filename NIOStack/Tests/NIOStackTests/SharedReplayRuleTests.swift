import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Reference
import Testing

/// NetworkCore's `ReplayRule` gives both stacks the same decision on a request an HTTP/2 server did not answer: the
/// same outcome, and the same number of sends seen by the server.
@Suite("Both stacks send again the same unanswered HTTP/2 requests, as often", .timeLimit(.minutes(1)))
struct SharedReplayRuleTests {

    /// What a fetch ended in, and how many requests the server read.
    private struct Seen: Equatable, CustomStringConvertible {
        let outcome: String
        let requests: Int
        var description: String { "\(outcome) after \(requests) requests" }
    }

    private static func seen<Stack: NetworkStack>(_ stack: Stack, method: String, script: [MockResponse]) async throws -> Seen
    where
        Stack.Resource == Network.URLSessionResource, Stack.Remote == Data, Stack.Response == URLResponse,
        Stack.FetchError == Network.URLSessionError
    {
        let server = try MockServer(tls: MockServer.TLS(identity: Fixtures.identity("valid-ec256"), httpVersions: .http2Only))
        for response in script { server.enqueue(response) }
        var request = URLRequest(url: server.url("/replayed"), timeoutInterval: 5)
        request.httpMethod = method
        if method == "POST" { request.httpBody = Data("order=1".utf8) }
        let resource = Network.URLSessionResource(baseRequestMaking: .init { [request] in $0(.success(request)) })
        let outcome = await withCheckedContinuation { continuation in
            stack.fetch(resource: resource) { result in
                switch result {
                case .success(let value): continuation.resume(returning: String(decoding: value.value, as: UTF8.self))
                case .failure(.url(let error)): continuation.resume(returning: "url(\(error.code.rawValue))")
                case .failure(let error): continuation.resume(returning: "\(type(of: error))")
                }
            }
        }
        server.shutdown()
        return Seen(outcome: outcome, requests: server.journal.reduce(0) { $0 + $1.requestCount })
    }

    @Test("refused streams, GOAWAYs that leave a request out or count it processed: alike on both stacks")
    func stacksAgree() async throws {
        let refused = MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead))
        let leftOut = MockResponse(fault: MockFault(.goAway(), .afterRequestHead))
        let processed = MockResponse(fault: MockFault(.goAway(lastStreamID: 1, .internalError), .afterRequest))
        let ok = MockResponse(status: 200, body: Data("ok".utf8))
        let scripts: [(what: String, method: String, script: [MockResponse], expected: Seen)] = [
            ("a refused GET", "GET", [refused, ok], Seen(outcome: "ok", requests: 2)),
            ("a refused POST", "POST", [refused, ok], Seen(outcome: "ok", requests: 2)),
            ("a GET refused every time", "GET", [refused, refused, refused, ok], Seen(outcome: "url(-1005)", requests: 3)),
            ("a GET a GOAWAY left out", "GET", [leftOut, ok], Seen(outcome: "ok", requests: 2)),
            ("a POST a GOAWAY counts as processed", "POST", [processed, ok], Seen(outcome: "url(-1005)", requests: 1)),
        ]
        var roots = Network.URLSessionNetworkStack.Configuration()
        roots.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        let reference = Network.URLSessionNetworkStack(configuration: roots, retryQueue: .global())
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        let nio = NIONetworkStack(configuration: configuration, retryQueue: DispatchQueue(label: "test.retry"))
        defer { nio.invalidateAndCancel() }
        for script in scripts {
            let left = try await Self.seen(reference, method: script.method, script: script.script)
            let right = try await Self.seen(nio, method: script.method, script: script.script)
            #expect(left == script.expected, "\(script.what): reference \(left)")
            #expect(right == script.expected, "\(script.what): NIO \(right)")
        }
        await reference.shutdown()
    }
}
