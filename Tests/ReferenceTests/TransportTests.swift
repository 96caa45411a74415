import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

@Suite("Reference transport over real TLS", .scaledTimeLimit(minutes: 1), .blocking)
struct TransportTests {

    @Test("a GET returns the body, status, headers and final URL")
    func getReturnsBodyAndResponse() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, headers: ["X-Test": "yes"], body: Data("hello".utf8)))
        let value = try #require(harness.fetch(harness.resource("/greeting")).success)
        let response = try #require(value.response as? HTTPURLResponse)
        #expect(value.value == Data("hello".utf8))
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "X-Test") == "yes")
        #expect(response.url == harness.server.url("/greeting"))
    }

    @Test("a POST sends its method, headers and body")
    func postSendsMethodHeadersBody() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 201, body: Data("ok".utf8)))
        let body = Data(#"{"a":1}"#.utf8)
        _ = harness.fetch(
            harness.resource("/items", method: "POST", body: body, headers: ["Content-Type": "application/json", "X-Id": "7"]))
        let request = try harness.server.takeRequest()
        #expect(request.method == "POST")
        #expect(request.path == "/items")
        #expect(request.body == body)
        #expect(request.header("content-type") == "application/json")
        #expect(request.header("X-Id") == "7")
        #expect(request.header("Expect") == nil)
    }

    @Test("methods other than GET and POST are sent as they are", arguments: ["PUT", "PATCH", "DELETE", "OPTIONS"])
    func customMethods(method: String) throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        _ = harness.fetch(harness.resource(method: method, body: method == "DELETE" ? nil : Data("b".utf8)))
        #expect(try harness.server.takeRequest().method == method)
    }

    @Test("204 and 205 succeed with empty data", arguments: [204, 205])
    func noContentSucceeds(status: Int) throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: status))
        let value = try #require(harness.fetch(harness.resource()).success)
        #expect(value.value.isEmpty)
    }

    @Test("a 200 with no body is noData, with its status")
    func emptyOKIsNoData() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200))
        guard case .noData(.success(200), let response)? = harness.fetch(harness.resource()).failure else {
            Issue.record("expected noData"); return
        }
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
    }

    @Test("a status named in emptyBodyStatusCodes succeeds without a body")
    func emptyBodyEscapeHatch() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 201))
        #expect(harness.fetch(harness.resource(emptyBodyStatusCodes: [201])).success?.value == Data())
    }

    @Test("a HEAD response succeeds although it has no body")
    func headSucceeds() throws {
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 200, headers: ["Content-Length": "5"]))
        #expect(harness.fetch(harness.resource(method: "HEAD")).success?.value == Data())
    }

    @Test("a non-2xx status is http, with the API error decoded from the payload")
    func httpErrorDecoded() throws {
        struct APIError: Error, Decodable { var message: String }
        let harness = try Harness()
        harness.server.enqueue(MockResponse(status: 422, body: Data(#"{"message":"bad"}"#.utf8)))
        guard
            case .http(.clientError(422), let apiError as APIError, _)? =
                harness.fetch(harness.resource(errorDecoding: .json(APIError.self))).failure
        else { Issue.record("expected http with API error"); return }
        #expect(apiError.message == "bad")
    }

    @Test("a chunked body is reassembled")
    func chunkedBody() throws {
        let harness = try Harness()
        let body = Data((0..<5000).map { UInt8($0 % 251) })
        harness.server.enqueue(MockResponse(status: 200, body: body, chunked: [1, 100, 4000, 899]))
        #expect(harness.fetch(harness.resource()).success?.value == body)
    }

    @Test("connections are reused across fetches")
    func connectionReuse() throws {
        let harness = try Harness()
        for _ in 0..<3 { harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8))) }
        for _ in 0..<3 { #expect(harness.fetch(harness.resource()).success != nil) }
        #expect(harness.server.journal.count == 1)
        #expect(harness.server.journal.first?.requestCount == 3)
    }

    @Test("no more connections to a host than maximumConnectionsPerHost are opened; the other fetches wait")
    func connectionsPerHostAreLimited() throws {
        let harness = try Harness { $0.maximumConnectionsPerHost = 2 }
        let fetches = 8
        for _ in 0..<fetches { harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8), headDelay: .milliseconds(20))) }
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        for _ in 0..<fetches { harness.stack.fetch(resource: harness.resource()) { recorder.record($0) } }
        let results = (0..<fetches).compactMap { _ in recorder.next() }
        #expect(results.filter { $0.success?.value == Data("x".utf8) }.count == fetches)
        #expect(harness.server.journal.count == 2)
    }

    @Test("a transfer carries nothing over from the ones before it: method, body, headers, HEAD's no-body")
    func transfersStartClean() throws {
        let harness = try Harness()
        for _ in 0..<4 { harness.server.enqueue(MockResponse(status: 200, body: Data("body".utf8))) }
        _ = harness.fetch(harness.resource("/1", method: "HEAD"))
        _ = harness.fetch(harness.resource("/2", method: "POST", body: Data("posted".utf8), headers: ["X-Once": "1"]))
        _ = harness.fetch(harness.resource("/3", method: "PUT", body: Data("put".utf8)))
        let last = try #require(harness.fetch(harness.resource("/4")).success)
        #expect(last.value == Data("body".utf8))
        let requests = try (0..<4).map { _ in try harness.server.takeRequest() }
        #expect(requests.map(\.method) == ["HEAD", "POST", "PUT", "GET"])
        #expect(requests[3].body.isEmpty)
        #expect(requests[3].header("X-Once") == nil)
        #expect(requests[3].header("Content-Length") == nil)
    }

    @Test("plain HTTP works too")
    func plainHTTP() throws {
        let harness = try Harness(scenario: nil)
        harness.server.enqueue(MockResponse(status: 200, body: Data("plain".utf8)))
        #expect(harness.fetch(harness.resource()).success?.value == Data("plain".utf8))
    }

    @Test("trust roots from a file that holds no certificate are refused at construction")
    func invalidRootsFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("not-a-root-\(UUID().uuidString).pem").path
        try Data("not a certificate".utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: ServerCertificate.ReadError.self) { try TrustRoots.only(pemFiles: [path]) }
        #expect(throws: ServerCertificate.ReadError.self) { try TrustRoots.only(pemFiles: ["/nonexistent/root.pem"]) }
    }

    @Test("the system store plus extra roots trusts the extra root")
    func systemPlusExtraRoots() throws {
        let harness = try Harness(configure: { $0.trustRoots = try! .system(addingPEMFiles: [Fixtures.path("roots/root-a.pem")]) })
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
    }

    @Test("trust roots that are not PEM fail the request with secureConnectionFailed, blaming no server")
    func unloadableRootsPEM() throws {
        let harness = try Harness(configure: { $0.trustRoots = .only(pem: "not a certificate") })
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected url error"); return }
        #expect(error.code == .secureConnectionFailed, "\(error.transportFailure.map(String.init(describing:)) ?? "")")
    }
}
