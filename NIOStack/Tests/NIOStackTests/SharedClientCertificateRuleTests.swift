import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Reference
import Testing

/// NetworkCore's `ClientCertificateExchange` gives both stacks the same answer to a server that asks for a client
/// certificate: the same outcome, the same certificate at the server, and the same connections for a second fetch
/// whose handler answers as before, or otherwise.
@Suite("Both stacks answer a server that asks for a client certificate alike", .timeLimit(.minutes(1)))
struct SharedClientCertificateRuleTests {

    /// How two fetches in a row ended, what the server saw presented on each connection, and how many it accepted.
    private struct Seen: Equatable, CustomStringConvertible {
        let outcomes: [String]
        let presented: [String]
        var description: String { "\(outcomes), presented \(presented)" }
    }

    private struct Script {
        let what: String
        let mode: (String) -> MockServer.TLS.ClientAuthentication
        let version: MockServer.TLS.Version
        let first: ClientCertificateChallenge.Disposition
        /// The handler's answer for the second fetch; `nil`: no second fetch.
        let second: ClientCertificateChallenge.Disposition?
        let expected: Seen
    }

    private static func seen<Stack: NetworkStack>(_ stack: Stack, handler: ClientAnswers, _ script: Script) async throws -> Seen
    where
        Stack.Resource == Network.URLSessionResource, Stack.Remote == Data, Stack.Response == URLResponse,
        Stack.FetchError == Network.URLSessionError
    {
        var tls = MockServer.TLS(identity: Fixtures.identity("valid-ec256"))
        tls.maximumVersion = script.version
        tls.clientAuthentication = script.mode(Fixtures.path("roots/root-a.pem"))
        let server = try MockServer(tls: tls)
        server.enqueue(MockResponse(body: Data("first".utf8)))
        server.enqueue(MockResponse(body: Data("second".utf8)))
        handler.set(script.first)
        var outcomes = [Self.outcome(await stack.result(fetching: server.url("/")))]
        if let second = script.second {
            handler.set(second)
            outcomes.append(Self.outcome(await stack.result(fetching: server.url("/"))))
        }
        server.shutdown()
        let presented = server.journal.map { $0.clientCertificate?.presentedSubjects.first ?? "none" }
        return Seen(outcomes: outcomes, presented: presented)
    }

    private static func outcome(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> String {
        switch result {
        case .success(let value): String(decoding: value.value, as: UTF8.self)
        case .failure(.url(let error)): "url(\(error.code.rawValue))"
        case .failure(let error): "\(type(of: error))"
        }
    }

    @Test("presented, missing, refused, cancelled, unusable, and a second fetch with the same or another answer")
    func stacksAgree() async throws {
        let valid = try NIOStackClientCertificateTests.identity("client-valid")
        let leaf = "CN=Fixture client-valid Client"
        typealias Mode = MockServer.TLS.ClientAuthentication
        let scripts: [Script] = [
            Script(
                what: "required, presented, then the same", mode: Mode.required(trusting:), version: .tls13, first: .useCredential(valid),
                second: .useCredential(valid), expected: Seen(outcomes: ["first", "second"], presented: [leaf])),
            Script(
                what: "optional, presented, then none", mode: Mode.optional(trusting:), version: .tls12, first: .useCredential(valid),
                second: .performDefaultHandling, expected: Seen(outcomes: ["first", "second"], presented: [leaf, "none"])),
            Script(
                what: "optional, none, then presented", mode: Mode.optional(trusting:), version: .tls13, first: .performDefaultHandling,
                second: .useCredential(valid), expected: Seen(outcomes: ["first", "second"], presented: ["none", leaf])),
            Script(
                what: "optional, presented, then cancelled", mode: Mode.optional(trusting:), version: .tls13, first: .useCredential(valid),
                second: .cancelAuthenticationChallenge, expected: Seen(outcomes: ["first", "url(-1206)"], presented: [leaf])),
            Script(
                what: "required, none (TLS 1.2)", mode: Mode.required(trusting:), version: .tls12, first: .performDefaultHandling,
                second: nil, expected: Seen(outcomes: ["url(-1206)"], presented: ["none"])),
            Script(
                what: "required, expired (TLS 1.3)", mode: Mode.required(trusting:), version: .tls13,
                first: .useCredential(try NIOStackClientCertificateTests.identity("client-expired")), second: nil,
                expected: Seen(outcomes: ["url(-1205)"], presented: ["CN=Fixture client-expired Client"])),
            Script(
                what: "required, on an RSA-1024 key", mode: Mode.required(trusting:), version: .tls13,
                first: .useCredential(try NIOStackClientCertificateTests.identity("client-weak-key")), second: nil,
                expected: Seen(outcomes: ["url(-1200)"], presented: ["none"])),
        ]
        var roots = Network.URLSessionNetworkStack.Configuration()
        roots.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        for script in scripts {
            let handler = ClientAnswers(.performDefaultHandling)
            let reference = Network.URLSessionNetworkStack(
                configuration: roots, authenticationChallengeHandler: handler, retryQueue: .global())
            let nio = NIONetworkStack(configuration: configuration, authenticationChallengeHandler: handler, retryQueue: .global())
            let left = try await Self.seen(reference, handler: handler, script)
            let right = try await Self.seen(nio, handler: handler, script)
            #expect(left == script.expected, "\(script.what): reference \(left)")
            #expect(right == script.expected, "\(script.what): NIO \(right)")
            await reference.shutdown()
            nio.invalidateAndCancel()
        }
    }
}
