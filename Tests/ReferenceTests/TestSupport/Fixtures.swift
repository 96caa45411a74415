import Conformance
import Foundation
import MockServer
import Reference

/// The certificate catalogue in `Fixtures/certs`, located from this file.
enum Fixtures {

    static let certificates: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/certs")

    /// Response bodies too big to build in a test (`Fixtures/bodies`).
    static let bodies: URL = certificates.deletingLastPathComponent().appendingPathComponent("bodies")

    static func path(_ relative: String) -> String { certificates.appendingPathComponent(relative).path }

    /// The TLS identity that serves a scenario's chain.
    static func identity(_ scenario: String) -> MockServer.TLS.Identity {
        .init(chainFile: path("\(scenario)/served.pem"), keyFile: path("\(scenario)/leaf.key"))
    }

    /// Root A, which most scenarios chain to.
    static var rootA: TrustRoots { try! .only(pemFiles: [path("roots/root-a.pem")]) }

    /// The manifest, read once through the conformance library's reader.
    static let catalogue = try! FixtureCatalogue(directory: certificates)

    /// The pin of a scenario's certificate with the given role (e.g. "intermediate-1").
    static func pin(_ scenario: String, role: String) -> String { try! catalogue.pin(scenario, role) }
}

/// A server serving a fixture scenario, and a stack that trusts root A.
struct Harness {
    let server: MockServer
    let stack: Network.URLSessionNetworkStack

    init(
        scenario: String? = "valid-ec256",
        handler: (any AuthenticationChallengeHandler)? = nil,
        httpVersions: MockServer.TLS.HTTPVersions = .http1Only,
        port: Int = 0,
        configure: (inout Network.URLSessionNetworkStack.Configuration) -> Void = { _ in },
        tls adjust: (inout MockServer.TLS) -> Void = { _ in }
    ) throws {
        server = try MockServer(
            tls: scenario.map {
                var tls = MockServer.TLS(identity: Fixtures.identity($0), httpVersions: httpVersions)
                adjust(&tls)
                return tls
            }, port: port)
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        configure(&configuration)
        stack = Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: handler,
            retryQueue: DispatchQueue(label: "test.retry"))
    }

    func resource(
        _ path: String = "/", method: String = "GET", body: Data? = nil, headers: [String: String] = [:],
        timeout: TimeInterval = 10,
        errorDecoding: Network.ErrorDecoding<Data, URLResponse> = .dummy,
        interceptors: [URLSessionResourceInterceptor] = [],
        emptyBodyStatusCodes: Set<Int> = []
    ) -> Network.URLSessionResource {
        var request = URLRequest(url: server.url(path), timeoutInterval: timeout)
        request.httpMethod = method
        request.httpBody = body
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let made = request
        return Network.URLSessionResource(
            baseRequestMaking: .init { handler in handler(.success(made)) },
            errorDecoding: errorDecoding, interceptors: interceptors, emptyBodyStatusCodes: emptyBodyStatusCodes)
    }

    /// Fetches and waits (bounded) for the completion.
    func fetch(_ resource: Network.URLSessionResource) -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        stack.fetch(resource: resource) { recorder.record($0) }
        return recorder.next()!
    }
}

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
