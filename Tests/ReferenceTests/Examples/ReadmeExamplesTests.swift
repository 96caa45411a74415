// The README's examples, compiled and run. Keep the two in step: each block below is copied into README.md.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

@Suite("README examples", .timeLimit(.minutes(1)), .blocking)
struct ReadmeExamplesTests {

    @Test("fetching with a pinned stack, script/run/verify with the MockServer")
    func readmeTour() async throws {
        let certificates = Fixtures.certificates.path
        let intermediatePin = Fixtures.pin("valid-ec256", role: "intermediate-1")
        let backupPin = try Fixtures.catalogue.backupPin()

        // README: script
        let server = try MockServer(
            tls: .init(
                identity: .init(
                    chainFile: "\(certificates)/valid-ec256/served.pem", keyFile: "\(certificates)/valid-ec256/leaf.key")))
        server.enqueue(MockResponse(status: 503))
        server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"name":"pinned"}"#.utf8)))

        // README: the stack
        let evaluator = try ServerTrustEvaluator(
            configuration: .init(
                pinningPolicies: [
                    try .init(
                        domainName: "localhost",
                        includeSubdomains: false,
                        expirationDate: .distantFuture,
                        pinnedHashes: [intermediatePin, backupPin],
                        enforceBackupPin: true)
                ],
                certificateCheckingOrder: .leafToRoot,
                allowNotPinnedDomains: false,
                allowExpiredDomainPolicies: false))

        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: ["\(certificates)/roots/root-a.pem"])
        let network = Network.URLSessionNetworkStack(
            configuration: configuration,
            authenticationChallengeHandler: evaluator,
            retryQueue: DispatchQueue(label: "network.retry"))

        // README: run
        struct Repo: Decodable, Sendable { var name: String }
        let resource = Network.URLSessionResource(
            baseRequestMaking: .init { handler in handler(.success(URLRequest(url: server.url("/repo")))) },
            interceptors: [Network.URLSessionRetryPolicy.maxRetries(2)])
        let repo = try await network.fetchAndDecode(resource: resource, decoding: .json(Repo.self))
        #expect(repo.value.name == "pinned")

        // README: verify
        let first = try server.takeRequest()
        #expect(first.path == "/repo")
        #expect(server.journal.count == 1)  // one TLS connection, reused for the retry
        #expect(server.journal[0].requestCount == 2)
    }

    @Test("HTTP/2: a refused stream is sent again, unseen by the retry policy")
    func readmeHTTP2() async throws {
        let certificates = Fixtures.certificates.path

        // README: http2
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

    @Test("client certificates: the handler presents an identity to a server that asks")
    func readmeClientCertificates() async throws {
        let certificates = Fixtures.certificates.path

        // README: client certificates
        var tls = MockServer.TLS(
            identity: .init(chainFile: "\(certificates)/valid-ec256/served.pem", keyFile: "\(certificates)/valid-ec256/leaf.key"))
        tls.clientAuthentication = .required(trusting: "\(certificates)/roots/root-a.pem")
        let server = try MockServer(tls: tls)
        server.enqueue(MockResponse(status: 200, body: Data("hello, client".utf8)))

        let identity = try ClientIdentity(
            pemCertificateFile: "\(certificates)/client-valid/served.pem", privateKeyFile: "\(certificates)/client-valid/leaf.key")
        // or: try ClientIdentity(pkcs12File: "client.p12", passphrase: "…")
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: ["\(certificates)/roots/root-a.pem"])
        let network = Network.URLSessionNetworkStack(
            configuration: configuration,
            authenticationChallengeHandler: ClientCertificateHandler(presenting: identity),  // serverTrust: a pinning evaluator, say
            retryQueue: DispatchQueue(label: "network.retry"))

        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: server.url("/me")))) })
        let response = try await network.fetch(resource: resource)

        #expect(response.value == Data("hello, client".utf8))
        #expect(server.journal[0].clientCertificate?.presentedSubjects.first == "CN=Fixture client-valid Client")
    }

    @Test("revocation: a stapled response that says revoked refuses the server before any request")
    func readmeRevocation() async throws {
        let certificates = Fixtures.certificates.path

        // README: revocation
        let server = try MockServer(
            tls: MockServer.TLS(
                identity: .init(
                    chainFile: "\(certificates)/revocation/served.pem", keyFile: "\(certificates)/revocation/leaf.key",
                    stapledOCSPResponseFile: "\(certificates)/revocation/ocsp-revoked.der")))
        server.enqueue(MockResponse(status: 200, body: Data("never sent".utf8)))

        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: ["\(certificates)/roots/root-a.pem"])
        configuration.revocation = RevocationPolicy(
            revocationLists: try CertificateRevocationList.lists(file: "\(certificates)/revocation/crl-good.pem"),
            stapling: .checkedWhenStapled)
        let network = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: DispatchQueue(label: "network.retry"))

        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: server.url("/")))) })
        do {
            _ = try await network.fetch(resource: resource)
            Issue.record("a revoked server was trusted")
        } catch .url(let error) {
            #expect(error.code == .serverCertificateUntrusted)
            #expect(error.transportFailure?.chainValidationFailure?.kind == .revoked)
        }
        #expect(server.journal[0].requestCount == 0)
    }
}
