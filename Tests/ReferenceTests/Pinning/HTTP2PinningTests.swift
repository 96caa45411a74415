import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import NetworkCore
import Testing

extension PinningTests {
    /// Pins over HTTP/2, where one connection could carry requests for several hosts its certificate names.
    @Suite("Pinning over HTTP/2")
    struct HTTP2PinningTests {
        /// A server for `a.example.test` and `b.example.test` (one certificate names both), both resolved to it.
        private func harness(pins: [String: Set<String>]) throws -> (PinHarness, Network.URLSessionNetworkStack) {
            let evaluator = try evaluator(pins.map { try policy($0.key, pins: $0.value) })
            let first = try PinHarness(scenario: "multi-host", host: "a.example.test", httpVersions: .http2Only, handler: evaluator)
            var configuration = Network.URLSessionNetworkStack.Configuration()
            configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
            configuration.resolveOverrides = ["a.example.test", "b.example.test"].map {
                .init(host: $0, port: first.server.port, address: "127.0.0.1")
            }
            let stack = Network.URLSessionNetworkStack(
                configuration: configuration, authenticationChallengeHandler: evaluator, retryQueue: DispatchQueue(label: "test.retry"))
            return (first, stack)
        }

        private func fetch(
            _ host: String, on stack: Network.URLSessionNetworkStack, port: Int
        ) -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
            let request = URLRequest(url: URL(string: "https://\(host):\(port)/")!, timeoutInterval: 10)
            let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) }, errorDecoding: .dummy)
            let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
            stack.fetch(resource: resource) { recorder.record($0) }
            return recorder.next()!
        }

        @Test("a second host under the same certificate gets a connection and a check of its own")
        func aSecondHostUnderTheSameCertificateGetsAConnectionAndACheckOfItsOwn() throws {
            let leaf = Catalogue.leaf("multi-host")
            let (harness, stack) = try harness(pins: ["a.example.test": [leaf], "b.example.test": [Catalogue.unrelated]])
            harness.server.dispatcher = MockDispatcher { _ in MockResponse(body: Data("ok".utf8)) }

            let first = fetch("a.example.test", on: stack, port: harness.server.port)
            let second = fetch("b.example.test", on: stack, port: harness.server.port)

            #expect(first.success?.value == Data("ok".utf8))
            #expect(second.urlErrorCode == .serverCertificateUntrusted, "b.example.test's own pins refuse it")
            #expect(second.serverTrustFailure?.host == "b.example.test")
            #expect(harness.server.journal.count == 2, "the h2 connection of a.example.test was not coalesced")
            #expect(harness.server.journal.reduce(0) { $0 + $1.requestCount } == 1, "no request for b.example.test was sent")
            #expect(harness.server.journal.first?.applicationProtocol == "h2")
        }

        @Test("each new HTTP/2 connection is checked in its handshake, and a reused one before each request")
        func eachNewHTTP2ConnectionIsCheckedInItsHandshakeAndAReusedOneBeforeEachRequest() throws {
            let leaf = Catalogue.leaf("multi-host")
            let (harness, stack) = try harness(pins: ["a.example.test": [leaf], "b.example.test": [leaf]])
            harness.server.dispatcher = MockDispatcher { _ in MockResponse(body: Data("ok".utf8)) }

            for host in ["a.example.test", "b.example.test", "a.example.test", "b.example.test"] {
                #expect(fetch(host, on: stack, port: harness.server.port).success != nil, "\(host)")
            }

            #expect(harness.server.journal.count == 2, "one connection per host, each reused once")
            #expect(harness.server.journal.allSatisfy { $0.requestCount == 2 && $0.applicationProtocol == "h2" })
        }
    }
}
