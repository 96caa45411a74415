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
        /// Lists written byte by byte, held after the fixture ones.
        var crafted: [CraftedRevocationList] = []
        var time = "2049-03-22T00:00:00Z"
        /// Fetched by address, which the leaf (for `localhost`) does not name.
        var byAddress = false
        let expected: String

        var testDescription: String { what }
    }

    static let inputs: [Input] =
        [
            Input(
                what: "every certificate covered, none listed", lists: ["crl-good.pem", "root-crl.pem"], coverage: .chain,
                expected: "trusted"),
            Input(what: "a listed leaf", lists: ["crl-revoked.pem"], expected: "revoked@0"),
            Input(
                what: "a listed intermediate under leaf coverage", lists: ["crl-good.pem", "root-crl-revoked.pem"], coverage: .leaf,
                expected: "revoked@1"),
            Input(what: "a list past its nextUpdate", lists: ["crl-expired.pem"], expected: "invalid-revocation-data@0"),
            Input(
                what: "a list current at an earlier verification time", lists: ["crl-expired.pem"], time: "2020-06-01T00:00:00Z",
                expected: "trusted"),
            Input(
                what: "a list whose signature does not verify", lists: ["crl-good.pem"], tampered: true,
                expected: "invalid-revocation-data@0"),
            Input(what: "a list for some reasons only", lists: ["crl-partial.pem"], expected: "revocation-unavailable@0"),
            Input(
                what: "chain coverage without the root's list", lists: ["crl-good.pem"], coverage: .chain,
                expected: "revocation-unavailable@1"),
            Input(what: "leaf coverage without a list", coverage: .leaf, expected: "revocation-unavailable@0"),
            Input(what: "a list from the root only, where held", lists: ["root-crl.pem"], expected: "trusted"),
            Input(what: "a required staple the server does not send", stapling: .required, expected: "revocation-unavailable@0"),
            Input(
                what: "a must-staple leaf without a staple", stapling: .checkedWhenStapled, scenario: "revocation-must-staple",
                expected: "revocation-unavailable@0"),
            Input(what: "a plain leaf without a staple, stapling checked", stapling: .checkedWhenStapled, expected: "trusted"),
            Input(
                what: "a list at the instant of its nextUpdate", lists: ["crl-expired.pem"], time: "2021-01-01T00:00:00Z",
                expected: "invalid-revocation-data@0"),
            Input(
                what: "two lists of one date: the first held counts (the listing one first)", lists: ["crl-revoked.pem", "crl-good.pem"],
                expected: "revoked@0"),
            Input(
                what: "two lists of one date: the first held counts (the empty one first)", lists: ["crl-good.pem", "crl-revoked.pem"],
                expected: "trusted"),
            // Revocation is checked after the host name and before the dates, as OpenSSL orders its checks.
            Input(
                what: "a listed leaf, fetched by an address it does not name", lists: ["crl-revoked.pem"], byAddress: true,
                expected: "revoked@0"),
            Input(
                what: "a leaf past its notAfter, its list past its nextUpdate", lists: ["crl-good.pem"], time: "2121-01-01T00:00:00Z",
                expected: "invalid-revocation-data@0"),
        ] + craftedInputs

    /// Shapes `openssl ca` cannot make, each written by ``CraftedRevocationList``.
    static var craftedInputs: [Input] {
        typealias List = CraftedRevocationList
        let leaf = (try? List.leafSerial()) ?? []
        let older = List(name: "older, empty")
        let newer = List(name: "newer, listing the leaf", thisUpdate: "20210101000000Z", entries: [.init(serial: leaf)])
        let idp = { (content: [UInt8]) in List.ext([2, 5, 29, 28], critical: true, List.tlv(0x30, content)) }
        let relativePoint = List.tlv(0xA0, List.tlv(0xA1, List.tlv(0x30, List.oid([2, 5, 4, 3]) + List.tlv(0x0C, Array("x".utf8)))))
        return [
            Input(what: "a newer list listing the leaf, held second", crafted: [older, newer], expected: "revoked@0"),
            Input(what: "a newer list listing the leaf, held first", crafted: [newer, older], expected: "revoked@0"),
            Input(
                what: "an entry with an unknown critical extension",
                crafted: [
                    List(
                        name: "critical entry",
                        entries: [.init(serial: [0x01], extensions: [List.ext([1, 2, 3, 4], critical: true, [0x05, 0x00])])])
                ],
                expected: "invalid-revocation-data@0"),
            Input(
                what: "a CRL number written with critical FALSE",
                crafted: [List(name: "explicit FALSE", entries: [.init(serial: leaf)], explicitNonCritical: true)], expected: "revoked@0"),
            Input(
                what: "a list for a distribution point named relative to its issuer",
                crafted: [List(name: "relative point", extensions: [idp(relativePoint)])], expected: "invalid-revocation-data@0"),
            Input(
                what: "a list for CA certificates only",
                crafted: [List(name: "CA only", extensions: [idp(List.tlv(0x82, [0xFF]))])], expected: "invalid-revocation-data@0"),
            Input(
                what: "an entry whose reason is removeFromCRL",
                crafted: [
                    List(name: "removed", entries: [.init(serial: leaf, extensions: [List.ext([2, 5, 29, 21], List.tlv(0x0A, [8]))])])
                ],
                expected: "trusted"),
            Input(
                what: "a list whose authorityKeyIdentifier names another key",
                crafted: [
                    List(name: "other key id", extensions: [List.ext([2, 5, 29, 35], List.tlv(0x30, List.tlv(0x80, [1, 2, 3, 4])))])
                ],
                expected: "revocation-unavailable@0"),
        ]
    }

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
        let url = input.byAddress ? URL(string: "https://127.0.0.1:\(server.port)/")! : server.url("/")
        let referenceVerdict = await Self.verdict(reference, url)
        let nioVerdict = await Self.verdict(nio, url)
        #expect(referenceVerdict == input.expected, "reference")
        #expect(nioVerdict == input.expected, "NIO")
        await reference.shutdown()
    }

    private static func policy(_ input: Input) throws -> RevocationPolicy {
        var lists = try input.lists.flatMap { try CertificateRevocationList.lists(file: Fixtures.path("revocation/\($0)")) }
        lists += try input.crafted.map { try CertificateRevocationList(der: $0.der()) }
        if input.tampered, let first = lists.first {
            var der = first.der
            der[der.count - 1] ^= 0x01
            lists[0] = try CertificateRevocationList(der: der)
        }
        return RevocationPolicy(revocationLists: lists, listCoverage: input.coverage, stapling: input.stapling)
    }

    /// `trusted`, or the chain failure's kind and depth.
    private static func verdict<S: NetworkStack>(_ stack: S, _ url: URL) async -> String
    where S.Resource == Network.URLSessionResource, S.Remote == Data, S.Response == URLResponse, S.FetchError == Network.URLSessionError {
        switch await stack.result(fetching: url) {
        case .success: return "trusted"
        case .failure(.url(let error)):
            guard let chain = error.transportFailure?.chainValidationFailure ?? error.serverTrustFailure?.reason.chainValidationFailure
            else { return "\(error.code.rawValue)" }
            return "\(chain.kind.rawValue)@\(chain.depth)"
        case .failure(let error): return "\(error)"
        }
    }
}
