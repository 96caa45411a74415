import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import Testing

@Test func refusedStreamIsSentAgain() async throws {
    let certificates = "Fixtures/certs"

    let server = try MockServer(
        tls: .init(
            identity: .init(chainFile: "\(certificates)/valid-ec256/served.pem", keyFile: "\(certificates)/valid-ec256/leaf.key"),
            httpVersions: .http2Only))
    server.enqueue(MockResponse(fault: MockFault(.resetStream(.refusedStream), .afterRequestHead)))
    server.enqueue(MockResponse(status: 200, body: Data("served".utf8)))

    var configuration = Network.URLSessionNetworkStack.Configuration()
    configuration.trustRoots = try .only(pemFiles: ["\(certificates)/roots/root-a.pem"])
    configuration.httpVersions = .http2Preferred  // the default; .http1Only offers HTTP/1.1 alone
    let network = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: DispatchQueue(label: "network.retry"))

    let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: server.url("/h2")))) })
    let response = try await network.fetch(resource: resource)

    #expect(response.value == Data("served".utf8))
    #expect(try server.takeRequest().streamID == 1)  // refused, so not processed...
    #expect(try server.takeRequest().streamID == 1)  // ...and sent again, on a new connection
    #expect(server.journal.map(\.applicationProtocol) == ["h2", "h2"])
}
