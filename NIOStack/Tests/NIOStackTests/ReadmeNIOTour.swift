import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Pinning
import Testing

@Test func pinningOnSwiftNIO() async throws {
    let certificates = "../Fixtures/certs"  // swift test runs in NIOStack/, beside the main package's fixtures
    let server = try MockServer(
        tls: .init(identity: .init(chainFile: "\(certificates)/valid-ec256/served.pem", keyFile: "\(certificates)/valid-ec256/leaf.key")))
    server.enqueue(MockResponse(status: 200, body: Data("pinned over NIO".utf8)))

    var configuration = NIONetworkStack.Configuration()
    configuration.trustRoots = try .only(pemFiles: ["\(certificates)/roots/root-a.pem"])
    let intermediatePin = "UYCkGM6mlp5tEXaiNtCiODdbd//1s4hwf2RyrteWTPc="  // Scripts/pin valid-ec256/intermediate-1.pem
    let backupPin = "/oc0auXjC3DrPQoBLiSeJUjzUANmrntINuxAT6eu2Ug="  // Scripts/pin backup-key/backup.key
    let evaluator = try ServerTrustEvaluator(
        configuration: .init(pinningPolicies: [try .init(domainName: "localhost", pinnedHashes: [intermediatePin, backupPin])]))
    let network = NIONetworkStack(
        configuration: configuration, authenticationChallengeHandler: evaluator, retryQueue: DispatchQueue(label: "network.retry"))
    defer { network.invalidateAndCancel() }

    let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: server.url("/")))) })
    let response = try await network.fetch(resource: resource)
    #expect(response.value == Data("pinned over NIO".utf8))
}
