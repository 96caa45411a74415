// The README's "Pinning on SwiftNIO" example, compiled and run. Keep the two in step: the block between the
// markers is copied into README.md.
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Pinning
import Testing

@Suite("NIO stack: README example", .timeLimit(.minutes(1)))
struct ReadmeExampleTests {

    @Test("the README's pinned fetch on SwiftNIO runs as written")
    func pinningOnSwiftNIO() async throws {
        let certificates = Fixtures.directory
        let intermediatePin = try Fixtures.pin("valid-ec256", role: "intermediate-1")
        let backupPin = try Fixtures.pin("backup-key", role: "key")
        let server = try MockServer(
            tls: .init(
                identity: .init(chainFile: "\(certificates)/valid-ec256/served.pem", keyFile: "\(certificates)/valid-ec256/leaf.key")))
        server.enqueue(MockResponse(status: 200, body: Data("pinned over NIO".utf8)))

        // README: begin
        var configuration = NIONetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: ["\(certificates)/roots/root-a.pem"])
        let evaluator = try ServerTrustEvaluator(
            configuration: .init(pinningPolicies: [try .init(domainName: "localhost", pinnedHashes: [intermediatePin, backupPin])]))
        let network = NIONetworkStack(
            configuration: configuration, authenticationChallengeHandler: evaluator, retryQueue: DispatchQueue(label: "network.retry"))
        defer { network.shutDown() }

        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: server.url("/")))) })
        let response = try await network.fetch(resource: resource)
        // README: end

        #expect(response.value == Data("pinned over NIO".utf8))
    }

    @Test("the README shows the example exactly as the test above runs it")
    func readmeShowsTheTestedExample() throws {
        let test = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(test.firstIndex { $0.hasSuffix("// README: begin") })
        let end = try #require(test.firstIndex { $0.hasSuffix("// README: end") })
        let block = test[(begin + 1)..<end].map { $0.hasPrefix("        ") ? String($0.dropFirst(8)) : $0 }.joined(separator: "\n")
        let readme = try String(contentsOfFile: Fixtures.directory + "/../../README.md", encoding: .utf8)

        #expect(readme.contains("```swift\n" + block + "\n```"))
    }
}
