import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetricsTestKit
import MockServer
import NetworkCore
@testable import Reference
import TestTraits
import Testing

/// TLS session resumption (TRUST-17): new connections resume, and a resumed connection is judged as a new one is.
@Suite("TLS sessions are resumed, never past the stack's judgement", .scaledTimeLimit(minutes: 1), .blocking)
struct SessionResumptionTests {

    /// A server offering resumption at most at `version`, answering each request and closing, so that each fetch makes
    /// a new connection.
    private static func harness(
        _ version: MockServer.TLS.Version = .tls13, handler: (any AuthenticationChallengeHandler)? = nil,
        configure: (inout Network.URLSessionNetworkStack.Configuration) -> Void = { _ in }
    ) throws -> Harness {
        try Harness(handler: handler, configure: configure) {
            $0.sessionResumption = true
            $0.maximumVersion = version
        }
    }

    /// A server on a port below the kernel's ephemeral range, for a test that shuts it down and listens on its port
    /// again: an ephemeral port left free for that moment can be taken by another test's server or outgoing
    /// connection ("bind: Address already in use", seen once in a run of the whole suite).
    private static func harnessBelowEphemeralPorts(tls adjust: (inout MockServer.TLS) -> Void) throws -> Harness {
        let range = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let lowestEphemeral = range.split(whereSeparator: \.isWhitespace).first.flatMap { Int($0) } ?? 32_768
        var lastError: (any Error)?
        for _ in 0..<32 {
            do {
                return try Harness(port: Int.random(in: (lowestEphemeral - 8_000)..<lowestEphemeral), tls: adjust)
            } catch let error as MockServerError where error.code == .bindFailed {
                lastError = error
            }
        }
        throw lastError!
    }

    private static func fetchClosing(_ harness: Harness) -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8), closeConnection: true))
        return harness.fetch(harness.resource())
    }

    @Test("a new connection resumes the last one's session", arguments: [MockServer.TLS.Version.tls13, .tls12])
    func resumes(_ version: MockServer.TLS.Version) throws {
        let harness = try Self.harness(version)
        for _ in 0..<3 { #expect(Self.fetchClosing(harness).success != nil) }
        try harness.server.waitForConnections(3)
        #expect(harness.server.journal.map(\.sessionReused) == [false, true, true])
    }

    @Test("over HTTP/2 too, a new connection resumes the last one's session")
    func resumesOverHTTP2() throws {
        let harness = try Harness(httpVersions: .http2Only, tls: { $0.sessionResumption = true })
        for _ in 0..<3 { #expect(Self.fetchClosing(harness).success != nil) }
        try harness.server.waitForConnections(3)
        #expect(harness.server.journal.map(\.sessionReused) == [false, true, true])
        #expect(harness.server.journal.map(\.applicationProtocol) == ["h2", "h2", "h2"])
    }

    @Test("metrics count a resumed connection's judgement as a resumed handshake")
    func metricsTellResumedFromFull() throws {
        let metrics = TestMetrics()
        let harness = try Self.harness(configure: StackMetricsTests.reporting(to: metrics))
        for _ in 0..<3 { #expect(Self.fetchClosing(harness).success != nil) }
        let label = "pinnednetwork_tls_handshakes_total"
        #expect(metrics.counterTotal(label: label, dimensions: [("verdict", "trusted"), ("session", "full")]) == 1)
        #expect(metrics.counterTotal(label: label, dimensions: [("verdict", "trusted"), ("session", "resumed")]) == 2)
    }

    @Test("with resumesTLSSessions off, every connection makes a full handshake")
    func resumptionOff() throws {
        let harness = try Self.harness { $0.resumesTLSSessions = false }
        for _ in 0..<2 { #expect(Self.fetchClosing(harness).success != nil) }
        #expect(harness.server.journal.map(\.sessionReused) == [false, false])
    }

    @Test("a handler's refusal of a resumed connection sends no request byte and fails as a full handshake's does")
    func refusalOfAResumedConnection() throws {
        var refusals: [Result<Network.Value<Data, URLResponse>, Network.URLSessionError>] = []
        for resumes in [true, false] {
            let handler = ScriptedHandler(.performDefaultHandling)
            let harness = try Self.harness(handler: handler) { $0.resumesTLSSessions = resumes }
            #expect(Self.fetchClosing(harness).success != nil)
            handler.set(ChallengeHandlerTests.refusal("localhost"))
            refusals.append(harness.fetch(harness.resource()))
            try harness.server.waitForConnections(2)
            // Recorded once the server's side of the handshake ended, which the client's refusal races.
            let second = try harness.server.waitForClose(ofConnection: 1)
            #expect(second.sessionReused == resumes)
            #expect(second.applicationBytesReceived == 0)
            #expect(handler.challenges.count == 2)
            #expect(handler.challenges.allSatisfy { !$0.isReusedConnection })
        }
        #expect(refusals[0].urlErrorCode == .serverCertificateUntrusted)
        #expect(refusals[0].urlErrorCode == refusals[1].urlErrorCode)
        #expect(refusals[0].serverTrustFailure?.reason == refusals[1].serverTrustFailure?.reason)
        #expect(
            refusals[0].serverTrustFailure.map(String.init(describing:)) == refusals[1].serverTrustFailure.map(String.init(describing:)))
    }

    @Test("a stack never offers a session another stack made")
    func sessionsStayWithTheirStack() throws {
        let harness = try Self.harness()
        #expect(Self.fetchClosing(harness).success != nil)
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = Fixtures.rootA
        let other = Network.URLSessionNetworkStack(
            configuration: configuration, authenticationChallengeHandler: nil, retryQueue: DispatchQueue(label: "test.other"))
        harness.server.enqueue(MockResponse(status: 200, body: Data("x".utf8), closeConnection: true))
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        other.fetch(resource: harness.resource()) { recorder.record($0) }
        #expect(recorder.next()?.success != nil)
        #expect(Self.fetchClosing(harness).success != nil)
        try harness.server.waitForConnections(3)
        #expect(harness.server.journal.map(\.sessionOffered) == [false, false, true])
        #expect(harness.server.journal.map(\.sessionReused) == [false, false, true])
    }

    @Test(
        "a server whose certificate changed but whose ticket keys did not: a resumed session stands on its own handshake's judgement, an offer turned down meets the new certificate",
        arguments: [true, false])
    func certificateRotatedTicketKeysKept(acceptsOffers: Bool) throws {
        let keys = MockServer.TLS.TicketKeys.random()
        let harness = try Self.harnessBelowEphemeralPorts {
            $0.sessionResumption = true
            $0.resumption.ticketKeys = keys
        }
        #expect(Self.fetchClosing(harness).success != nil)
        let port = harness.server.port
        harness.server.shutdown()
        // The same port, the same keys, a chain root A does not issue (untrusted-root).
        var rotated = MockServer.TLS(identity: Fixtures.identity("untrusted-root"), sessionResumption: true)
        rotated.resumption = .init(acceptsOffers: acceptsOffers, ticketKeys: keys)
        let server = try MockServer(tls: rotated, port: port)
        server.enqueue(MockResponse(status: 200, body: Data("x".utf8), closeConnection: true))
        let result = harness.fetch(harness.resource())
        let record = try server.waitForClose(ofConnection: 0)
        #expect(record.sessionOffered)
        #expect(record.sessionReused == acceptsOffers)
        if acceptsOffers {
            // The server proved it holds the keys that sealed the session the stack judged: TLS authenticates it so.
            #expect(result.success != nil)
        } else {
            #expect(result.urlErrorCode == .serverCertificateUntrusted)
            #expect(record.applicationBytesReceived == 0)
        }
    }

    @Test("a session made presenting a client identity is resumed only while the handler would present the same one")
    func clientIdentityDecidesResumption() throws {
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity("client-valid")))
        let harness = try Harness(
            handler: handler,
            tls: {
                $0.sessionResumption = true
                $0.clientAuthentication = .required(trusting: Fixtures.path("roots/root-a.pem"))
            })
        for _ in 0..<2 { #expect(Self.fetchClosing(harness).success != nil) }
        handler.set(.useCredential(ClientIdentities.identity("client-valid-2")))
        #expect(Self.fetchClosing(harness).success != nil)
        try harness.server.waitForConnections(3)
        let journal = harness.server.journal
        #expect(journal.map(\.sessionReused) == [false, true, false])
        #expect(journal[2].clientCertificate?.presentedSubjects.first == ClientIdentities.identity("client-valid-2").subject)
    }

    @Test("a verdict is replayed only within the period every certificate and held list it rests on is valid")
    func replayablePeriod() {
        let start = Date(timeIntervalSince1970: 1_000_000)
        let kept = KeptTrust(
            evidence: .init(host: "localhost", port: 443, served: [], verified: [], standard: .success(())),
            replayablePeriod: start...start.addingTimeInterval(60), clientCertificate: nil, leafDemandsStaple: false)
        #expect(kept.isReplayable(at: start))
        #expect(kept.isReplayable(at: start.addingTimeInterval(60)))
        #expect(!kept.isReplayable(at: start.addingTimeInterval(61)))
        #expect(!kept.isReplayable(at: start.addingTimeInterval(-1)))
        let unknown = KeptTrust(
            evidence: kept.evidence, replayablePeriod: nil, clientCertificate: nil, leafDemandsStaple: false)
        #expect(!unknown.isReplayable(at: start))
    }

    @Test("a stack that requires stapled responses keeps no session; one that checks a staple when sent keeps them")
    func requiredStaplesMeanFullHandshakes() {
        func context(_ stapling: RevocationPolicy.Stapling) -> TLSTrustContext {
            TLSTrustContext(
                roots: .system, handler: nil, verificationTime: nil, logger: .init(label: "test"),
                revocation: RevocationPolicy(stapling: stapling), resumesSessions: true)
        }
        #expect(context(.required).sessions == nil)
        #expect(context(.checkedWhenStapled).sessions != nil)
    }
}
