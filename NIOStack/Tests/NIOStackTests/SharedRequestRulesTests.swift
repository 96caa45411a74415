import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Reference
import Testing

/// The rules both stacks take from NetworkCore (`RequestCheck`, `RedirectRule`) give the same decision for the same
/// request, seen as a caller sees it: the outcome of a fetch.
@Suite("Both stacks refuse the same requests and follow the same redirects", .timeLimit(.minutes(1)))
struct SharedRequestRulesTests {

    /// What a fetch ended in: the status, or the `URLError` code.
    private enum Outcome: Equatable, Sendable {
        case status(Int)
        case refused(URLError.Code)
        case other(String)
    }

    private static func outcome<Stack: NetworkStack>(_ stack: Stack, _ request: URLRequest) async -> Outcome
    where Stack.Resource == Network.URLSessionResource, Stack.Response == URLResponse, Stack.FetchError == Network.URLSessionError {
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })
        return await withCheckedContinuation { continuation in
            stack.fetch(resource: resource) { result in
                switch result {
                case .success(let value): continuation.resume(returning: .status((value.response as? HTTPURLResponse)?.statusCode ?? 0))
                case .failure(.url(let error)): continuation.resume(returning: .refused(error.code))
                case .failure(let error):
                    // Each case's server has a port of its own: the description without it.
                    let text = "\(error)".replacing(/127\.0\.0\.1:[0-9]+/, with: "server")
                    continuation.resume(returning: .other(text))
                }
            }
        }
    }

    /// Requests to the server at `base`: a header set whole (a careless caller's dictionary), or another URL.
    private static func requests(to base: URL) -> [(what: String, request: URLRequest)] {
        func request(_ url: URL, headers: [String: String] = [:]) -> URLRequest {
            var request = URLRequest(url: url, timeoutInterval: 10)
            request.allHTTPHeaderFields = headers
            return request
        }
        return [
            ("a token header name", request(base, headers: ["X-Request-ID": "1"])),
            ("CR LF in a value", request(base, headers: ["X-Test": "a\r\nInjected: 1"])),
            ("NUL in a value", request(base, headers: ["X-Test": "a\u{0}b"])),
            ("a space in a name", request(base, headers: ["X Test": "1"])),
            ("a parenthesis in a name", request(base, headers: ["X(Test)": "1"])),
            ("a non-ASCII name", request(base, headers: ["X-Naïve": "1"])),
            ("an ftp URL", request(URL(string: "ftp://127.0.0.1:1/file")!)),
            ("a URL without a host", request(URL(string: "http:///path")!)),
        ]
    }

    @Test("each request ends alike on the reference stack and the NIO stack, and a refused one sends nothing")
    func stacksAgree() async throws {
        let server = try MockServer()
        let reference = Network.URLSessionNetworkStack(configuration: .init(), retryQueue: .global())
        let nio = NIONetworkStack(retryQueue: DispatchQueue(label: "test.retry"))
        defer { nio.invalidateAndCancel() }
        for (what, request) in Self.requests(to: server.url("/")) {
            let served = server.journal.count
            server.enqueue(MockResponse(status: 200))
            server.enqueue(MockResponse(status: 200))
            let (left, right) = (await Self.outcome(reference, request), await Self.outcome(nio, request))
            #expect(left == right, "\(what): reference \(left), NIO \(right)")
            if case .refused = left { #expect(server.journal.count == served, "\(what) reached the server") }
        }
        await reference.shutdown()
    }

    /// A fetch of `/start` on a server of its own that answers `hops` redirects, then a 200.
    private static func redirected<Stack: NetworkStack>(
        through stack: Stack, method: String, status: Int, location: String, hops: Int
    ) async throws -> Outcome
    where Stack.Resource == Network.URLSessionResource, Stack.Response == URLResponse, Stack.FetchError == Network.URLSessionError {
        let server = try MockServer()
        for _ in 0..<hops { server.enqueue(MockResponse(status: status, headers: [("Location", location), ("Content-Length", "0")])) }
        server.enqueue(MockResponse(status: 200))
        var request = URLRequest(url: server.url("/start"), timeoutInterval: 10)
        request.httpMethod = method
        if method == "POST" { request.httpBody = Data("body".utf8) }
        return await outcome(stack, request)
    }

    @Test("a redirect limit ends alike on both stacks: none followed delivers the 3xx, one too many refuses")
    func redirectLimitsAgree() async throws {
        for policy in [RedirectPolicy.never, .follow(maximum: 1)] {
            var referenceConfiguration = Network.URLSessionNetworkStack.Configuration()
            referenceConfiguration.redirects = policy
            let reference = Network.URLSessionNetworkStack(configuration: referenceConfiguration, retryQueue: .global())
            var nioConfiguration = NIONetworkStack.Configuration()
            nioConfiguration.redirects = policy
            let nio = NIONetworkStack(configuration: nioConfiguration, retryQueue: DispatchQueue(label: "test.retry"))
            let left = try await Self.redirected(through: reference, method: "GET", status: 302, location: "/again", hops: 2)
            let right = try await Self.redirected(through: nio, method: "GET", status: 302, location: "/again", hops: 2)
            #expect(left == right, "\(policy): reference \(left), NIO \(right)")
            #expect(left != .status(200), "\(policy): two redirects were followed")
            nio.invalidateAndCancel()
            await reference.shutdown()
        }
    }

    @Test("each redirect ends alike on the reference stack and the NIO stack")
    func redirectsAgree() async throws {
        let reference = Network.URLSessionNetworkStack(configuration: .init(), retryQueue: .global())
        let nio = NIONetworkStack(retryQueue: DispatchQueue(label: "test.retry"))
        defer { nio.invalidateAndCancel() }
        let redirects: [(what: String, method: String, status: Int, location: String, hops: Int)] = [
            ("a 302 to a path", "GET", 302, "/final", 1),
            ("a 302 to ftp", "GET", 302, "ftp://127.0.0.1:1/file", 1),
            ("a 307 after a PUT", "PUT", 307, "/final", 1),
            ("a 303 after a POST", "POST", 303, "/final", 1),
            ("seventeen 302s in a row", "GET", 302, "/again", RedirectRule.defaultMaximum + 1),
        ]
        for redirect in redirects {
            let left = try await Self.redirected(
                through: reference, method: redirect.method, status: redirect.status, location: redirect.location, hops: redirect.hops)
            let right = try await Self.redirected(
                through: nio, method: redirect.method, status: redirect.status, location: redirect.location, hops: redirect.hops)
            #expect(left == right, "\(redirect.what): reference \(left), NIO \(right)")
        }
        await reference.shutdown()
    }
}
