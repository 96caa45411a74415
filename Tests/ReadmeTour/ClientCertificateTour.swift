import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import Testing

@Test func presentingAClientCertificate() async throws {
    let certificates = "Fixtures/certs"

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
