import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import Testing

@Test func revokedServerIsRefused() async throws {
    let certificates = "Fixtures/certs"

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
