import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NIOStack
import Pinning
import Reference
import Testing

/// The reference stack checks held revocation lists with OpenSSL, the NIO stack with its own reader over
/// swift-certificates: for the same lists, coverage and time, both accept the same servers and refuse the others with
/// the same chain failure kind, at the same depth.
@Suite("Both stacks judge held revocation lists alike", .timeLimit(.minutes(1)))
struct SharedRevocationTests {

    struct Input: Sendable, CustomTestStringConvertible {
        let what: String
        var lists: [String] = []
        var coverage: RevocationPolicy.ListCoverage = .whereHeld
        var stapling: RevocationPolicy.Stapling = .off
        var scenario = "revocation"
        /// A byte of the first list's signature changed.
        var tampered = false
        var time = "2049-03-22T00:00:00Z"
        let expected: String

        var testDescription: String { what }
    }

    static let inputs: [Input] = [
        Input(
            what: "every certificate covered, none listed", lists: ["crl-good.pem", "root-crl.pem"], coverage: .chain, expected: "trusted"),
        Input(what: "a listed leaf", lists: ["crl-revoked.pem"], expected: "revoked@0"),
        Input(
            what: "a listed intermediate under leaf coverage", lists: ["crl-good.pem", "root-crl-revoked.pem"], coverage: .leaf,
            expected: "revoked@1"),
        Input(what: "a list past its nextUpdate", lists: ["crl-expired.pem"], expected: "invalid-revocation-data@0"),
        Input(
            what: "a list current at an earlier verification time", lists: ["crl-expired.pem"], time: "2020-06-01T00:00:00Z",
            expected: "trusted"),
        Input(
            what: "a list whose signature does not verify", lists: ["crl-good.pem"], tampered: true, expected: "invalid-revocation-data@0"),
        Input(what: "a list for some reasons only", lists: ["crl-partial.pem"], expected: "revocation-unavailable@0"),
        Input(
            what: "chain coverage without the root's list", lists: ["crl-good.pem"], coverage: .chain, expected: "revocation-unavailable@1"),
        Input(what: "leaf coverage without a list", coverage: .leaf, expected: "revocation-unavailable@0"),
        Input(what: "a list from the root only, where held", lists: ["root-crl.pem"], expected: "trusted"),
        Input(what: "a required staple the server does not send", stapling: .required, expected: "revocation-unavailable@0"),
        Input(
            what: "a must-staple leaf without a staple", stapling: .checkedWhenStapled, scenario: "revocation-must-staple",
            expected: "revocation-unavailable@0"),
        Input(what: "a plain leaf without a staple, stapling checked", stapling: .checkedWhenStapled, expected: "trusted"),
    ]

    @Test("the two stacks reach the same verdict", arguments: inputs)
    func stacksAgree(input: Input) async throws {
        let server = try MockServer(tls: MockServer.TLS(identity: Fixtures.identity(input.scenario)))
        defer { server.shutdown() }
        let policy = try Self.policy(input)
        let time = try #require(ISO8601DateFormatter().date(from: input.time))
        let roots = try TrustRoots.only(pemFiles: [Fixtures.path("roots/root-a.pem")])

        var referenceConfiguration = Network.URLSessionNetworkStack.Configuration()
        referenceConfiguration.trustRoots = roots
        referenceConfiguration.revocation = policy
        referenceConfiguration.verificationTime = time
        let reference = Network.URLSessionNetworkStack(configuration: referenceConfiguration, retryQueue: .global())
        var nioConfiguration = NIONetworkStack.Configuration()
        nioConfiguration.trustRoots = try .only(pemFiles: [Fixtures.path("roots/root-a.pem")])
        nioConfiguration.revocation = policy
        nioConfiguration.verificationTime = time
        let nio = NIONetworkStack(configuration: nioConfiguration, retryQueue: .global())
        defer { nio.invalidateAndCancel() }

        for _ in 0..<2 { server.enqueue(MockResponse(status: 200, body: Data("ok".utf8))) }
        let referenceVerdict = await Self.verdict(reference, server.url("/"))
        let nioVerdict = await Self.verdict(nio, server.url("/"))
        #expect(referenceVerdict == input.expected, "reference")
        #expect(nioVerdict == input.expected, "NIO")
        await reference.shutdown()
    }

    private static func policy(_ input: Input) throws -> RevocationPolicy {
        var lists = try input.lists.flatMap { try CertificateRevocationList.lists(file: Fixtures.path("revocation/\($0)")) }
        if input.tampered, let first = lists.first {
            var der = first.der
            der[der.count - 1] ^= 0x01
            lists[0] = try CertificateRevocationList(der: der)
        }
        return RevocationPolicy(revocationLists: lists, listCoverage: input.coverage, stapling: input.stapling)
    }

    /// `trusted`, or the chain failure's kind and depth.
    private static func verdict<S: NetworkStack>(_ stack: S, _ url: URL) async -> String
    where S.Resource == Network.URLSessionResource, S.Response == URLResponse, S.FetchError == Network.URLSessionError {
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: url, timeoutInterval: 10))) })
        return await withCheckedContinuation { continuation in
            stack.fetch(resource: resource) { result in
                switch result {
                case .success: continuation.resume(returning: "trusted")
                case .failure(.url(let error)):
                    if let chain = error.transportFailure?.chainValidationFailure ?? error.serverTrustFailure?.reason.chainValidationFailure
                    {
                        continuation.resume(returning: "\(chain.kind.rawValue)@\(chain.depth)")
                    } else {
                        continuation.resume(returning: "\(error.code.rawValue)")
                    }
                case .failure(let error): continuation.resume(returning: "\(error)")
                }
            }
        }
    }
}
