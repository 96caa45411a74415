import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Testing

private struct Endpoint: HTTPResourceEndpoint {
    var method: HTTP.Method = .GET
    var baseURL: URL
    var path: String?
    var queryItems: [URLQueryItem]?
    var headers: HTTP.Headers?
    var body: Data?
    func makeBody() throws -> Data? { body }
}

@Suite("HTTPResourceEndpoint")
struct HTTPResourceEndpointTests {

    @Test("a path is appended to the base URL")
    func pathAppended() throws {
        let request = try Endpoint(baseURL: URL(string: "https://mindera.com")!, path: "/somepath").makeRequest()
        #expect(request.url?.absoluteString == "https://mindera.com/somepath")
    }

    @Test("paths are joined without a separator, then double slashes collapse")
    func pathsJoined() throws {
        let joined = try Endpoint(baseURL: URL(string: "https://mindera.com/somepath/")!, path: "/another/path").makeRequest()
        #expect(joined.url?.path == "/somepath/another/path")
        let glued = try Endpoint(baseURL: URL(string: "https://mindera.com/somepath")!, path: "another").makeRequest()
        #expect(glued.url?.path == "/somepathanother")
    }

    @Test("query items follow the base URL's own, in order")
    func queryItemsAppended() throws {
        let request = try Endpoint(
            baseURL: URL(string: "https://mindera.com/somepath/?item1=one&item2=two")!,
            queryItems: [URLQueryItem(name: "item3", value: "three"), URLQueryItem(name: "item4", value: "four")]
        ).makeRequest()
        #expect(request.url?.absoluteString == "https://mindera.com/somepath/?item1=one&item2=two&item3=three&item4=four")
    }

    @Test("method, headers and body are set on the request")
    func methodHeadersBody() throws {
        let request = try Endpoint(
            method: .HEAD, baseURL: URL(string: "https://mindera.com")!, path: "/somepath/another",
            queryItems: [URLQueryItem(name: "item1", value: "one"), URLQueryItem(name: "item2", value: "two")],
            headers: ["a": "1", "b": "2"], body: Data("🎉".utf8)
        ).makeRequest()
        #expect(request.url?.absoluteString == "https://mindera.com/somepath/another?item1=one&item2=two")
        #expect(request.httpMethod == "HEAD")
        #expect(request.allHTTPHeaderFields == ["a": "1", "b": "2"])
        #expect(request.httpBody == Data("🎉".utf8))
    }

    @Test("an unformable URL is a typed error, not a request to the bare base URL")
    func unformableURLThrows() {
        #expect(throws: HTTPResourceEndpointError.self) {
            try Endpoint(method: .POST, baseURL: URL(string: "https://mindera.com")!, path: "somepath").makeRequest()
        }
    }

    @Test("BaseRequestMaking.endpoint turns a thrown error into a failure")
    func endpointMakerFailure() {
        let maker = Network.BaseRequestMaking<URLRequest>.endpoint(
            Endpoint(baseURL: URL(string: "https://mindera.com")!, path: "nope"))
        let outcome = Locked<Bool?>(nil)
        _ = maker.make { result in
            if case .failure(let error) = result { outcome.withLock { $0 = error is HTTPResourceEndpointError } }
            return DummyCancelable()
        }
        #expect(outcome.withLock { $0 } == true)
    }
}
