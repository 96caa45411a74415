import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking  // URLRequest and URLResponse on Linux
#endif
import MockServer
import Reference
import Testing

@Test func fetchingWithAPinnedStack() async throws {
    // The chains Scripts/make-chain writes; this package's own are in Fixtures/certs.
    let certificates = "Fixtures/certs"

    // Script: the first attempt gets a 503, the retry a JSON body.
    let server = try MockServer(
        tls: .init(
            identity: .init(
                chainFile: "\(certificates)/valid-ec256/served.pem", keyFile: "\(certificates)/valid-ec256/leaf.key")))
    server.enqueue(MockResponse(status: 503))
    server.enqueue(MockResponse(status: 200, headers: ["Content-Type": "application/json"], body: Data(#"{"name":"pinned"}"#.utf8)))

    // A stack that trusts only the fixture root and pins the intermediate's key (plus a backup key kept offline).
    let intermediatePin = "UYCkGM6mlp5tEXaiNtCiODdbd//1s4hwf2RyrteWTPc="  // Scripts/pin valid-ec256/intermediate-1.pem
    let backupPin = "/oc0auXjC3DrPQoBLiSeJUjzUANmrntINuxAT6eu2Ug="  // Scripts/pin backup-key/backup.key
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

    // Run: fetch and decode, retrying up to twice.
    struct Repo: Decodable, Sendable { var name: String }
    let resource = Network.URLSessionResource(
        baseRequestMaking: .init { handler in handler(.success(URLRequest(url: server.url("/repo")))) },
        interceptors: [Network.URLSessionRetryPolicy.maxRetries(2)])
    let repo = try await network.fetchAndDecode(resource: resource, decoding: .json(Repo.self))
    #expect(repo.value.name == "pinned")

    // Verify: what the client really sent, and how.
    let first = try server.takeRequest()
    #expect(first.path == "/repo")
    #expect(server.journal.count == 1)  // one TLS connection, reused for the retry
    #expect(server.journal[0].requestCount == 2)
}
