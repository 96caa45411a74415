import CoreMetrics
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MetricsTestKit
import MockServer
import NetworkCore
import Reference
import TestTraits
import Testing

/// The stack's swift-metrics counters and timers, each test with a factory of its own (named in the
/// configuration, never bootstrapped), so tests running in parallel never see each other's numbers.
@Suite("The stack's metrics", .scaledTimeLimit(minutes: 1), .blocking)
struct StackMetricsTests {

    /// A stack's configuration that reports to `metrics`, with a dimension naming the test.
    static func reporting(to metrics: TestMetrics) -> (inout Network.URLSessionNetworkStack.Configuration) -> Void {
        {
            $0.metrics.factory = metrics; $0.metrics.dimensions = [("stack", "test")]
        }
    }

    @Test("a successful fetch counts a start, a success with its status class, its duration and one trusted handshake")
    func successfulFetch() throws {
        let metrics = TestMetrics()
        let harness = try Harness(configure: Self.reporting(to: metrics))
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)

        #expect(try metrics.expectCounter("pinnednetwork_fetches_started_total", [("stack", "test")]).totalValue == 1)
        let completed = try metrics.expectCounter(
            "pinnednetwork_fetches_completed_total", [("outcome", "success"), ("code", "2xx"), ("stack", "test")])
        #expect(completed.totalValue == 1)
        let duration = try metrics.expectTimer("pinnednetwork_fetch_duration_seconds", [("outcome", "success"), ("stack", "test")])
        #expect(duration.values.count == 1 && duration.values[0] > 0)
        #expect(metrics.counterTotal(label: "pinnednetwork_tls_handshakes_total", dimensions: [("verdict", "trusted")]) == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_tls_handshakes_total") == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_trust_refusals_total") == 0)
        #expect(metrics.counterTotal(label: "pinnednetwork_retries_total") == 0)
        try Self.expectDocumented(metrics)
    }

    @Test("a retried fetch counts the retry by the failure retried, over one handshake, and completes once")
    func retriedFetch() throws {
        let metrics = TestMetrics()
        let harness = try Harness(configure: Self.reporting(to: metrics))
        harness.server.enqueue(MockResponse(status: 503))
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let resource = harness.resource(interceptors: [Network.URLSessionRetryPolicy.maxRetries(2)])
        #expect(harness.fetch(resource).success != nil)

        #expect(metrics.counterTotal(label: "pinnednetwork_retries_total", dimensions: [("outcome", "http"), ("code", "5xx")]) == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_fetches_started_total") == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_fetches_completed_total", dimensions: [("outcome", "success")]) == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_fetches_completed_total") == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_tls_handshakes_total") == 1)  // the retry reused the connection
        try Self.expectDocumented(metrics)
    }

    @Test("a fetch whose retries run out completes as retries_exhausted, with the last failure's code")
    func retriesExhausted() throws {
        let metrics = TestMetrics()
        let harness = try Harness(configure: Self.reporting(to: metrics))
        for _ in 0..<2 { harness.server.enqueue(MockResponse(status: 503)) }
        #expect(harness.fetch(harness.resource(interceptors: [Network.URLSessionRetryPolicy.maxRetries(1)])).failure != nil)

        #expect(metrics.counterTotal(label: "pinnednetwork_retries_total") == 1)
        let exhausted = [("outcome", "retries_exhausted"), ("code", "5xx")]
        #expect(metrics.counterTotal(label: "pinnednetwork_fetches_completed_total", dimensions: exhausted) == 1)
    }

    @Test("a handler's refusal counts a refused handshake, a handler refusal on a new connection, and the URLError code")
    func handlerRefusal() throws {
        let metrics = TestMetrics()
        let handler = ScriptedHandler(ChallengeHandlerTests.refusal("localhost"))
        let harness = try Harness(handler: handler, configure: Self.reporting(to: metrics))
        #expect(harness.fetch(harness.resource()).failure != nil)

        #expect(metrics.counterTotal(label: "pinnednetwork_tls_handshakes_total", dimensions: [("verdict", "refused")]) == 1)
        let refusal = [("reason", "handler"), ("connection", "new")]
        #expect(metrics.counterTotal(label: "pinnednetwork_trust_refusals_total", dimensions: refusal) == 1)
        let completed = [("outcome", "url"), ("code", "serverCertificateUntrusted")]
        #expect(metrics.counterTotal(label: "pinnednetwork_fetches_completed_total", dimensions: completed) == 1)
        try Self.expectDocumented(metrics)
    }

    @Test("a chain that does not lead to a trusted root counts a chain refusal")
    func chainRefusal() throws {
        let metrics = TestMetrics()
        let harness = try Harness(configure: {
            Self.reporting(to: metrics)(&$0)
            $0.trustRoots = try! .only(pemFiles: [Fixtures.path("roots/root-b.pem")])
        })
        #expect(harness.fetch(harness.resource()).failure != nil)

        let refusal = [("reason", "chain"), ("connection", "new")]
        #expect(metrics.counterTotal(label: "pinnednetwork_trust_refusals_total", dimensions: refusal) == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_tls_handshakes_total", dimensions: [("verdict", "refused")]) == 1)
    }

    @Test("a refusal on a reused connection counts as reused, with no new handshake")
    func reusedConnectionRefusal() throws {
        let metrics = TestMetrics()
        let handler = ScriptedHandler(.useCredential)
        let harness = try Harness(handler: handler, configure: Self.reporting(to: metrics))
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
        handler.set(ChallengeHandlerTests.refusal("localhost"))
        #expect(harness.fetch(harness.resource()).failure != nil)

        #expect(metrics.counterTotal(label: "pinnednetwork_tls_handshakes_total") == 1)
        let refusal = [("reason", "handler"), ("connection", "reused")]
        #expect(metrics.counterTotal(label: "pinnednetwork_trust_refusals_total", dimensions: refusal) == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_fetches_started_total") == 2)
    }

    @Test("a server's request for a client certificate counts a challenge by the handler's answer; a cancel is a refusal")
    func clientCertificateChallenges() throws {
        let metrics = TestMetrics()
        let handler = ClientChallengeRecorder(.cancelAuthenticationChallenge)
        let harness = try Harness(
            asking: MockServer.TLS.ClientAuthentication.optional(trusting:), handler: handler, configure: Self.reporting(to: metrics))
        #expect(harness.fetch(harness.resource()).failure != nil)

        #expect(
            metrics.counterTotal(label: "pinnednetwork_client_certificate_challenges_total", dimensions: [("answer", "cancelled")]) == 1)
        let refusal = [("reason", "client_certificate"), ("connection", "new")]
        #expect(metrics.counterTotal(label: "pinnednetwork_trust_refusals_total", dimensions: refusal) == 1)
        try Self.expectDocumented(metrics)
    }

    @Test("a presented client certificate counts as presented, and is no refusal")
    func presentedClientCertificate() throws {
        let metrics = TestMetrics()
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity("client-valid")))
        let harness = try Harness(
            asking: MockServer.TLS.ClientAuthentication.required(trusting:), handler: handler, configure: Self.reporting(to: metrics))
        harness.server.enqueue(MockResponse(body: Data("hello".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)

        #expect(
            metrics.counterTotal(label: "pinnednetwork_client_certificate_challenges_total", dimensions: [("answer", "presented")]) == 1)
        #expect(metrics.counterTotal(label: "pinnednetwork_trust_refusals_total") == 0)
    }

    @Test("a stack with metrics turned off makes no metric, even with a factory; the prefix is configurable")
    func offAndPrefix() throws {
        let off = TestMetrics()
        let quiet = try Harness(configure: {
            $0.metrics.factory = off; $0.metrics.isEnabled = false
        })
        quiet.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(quiet.fetch(quiet.resource()).success != nil)
        #expect(off.counters.isEmpty && off.timers.isEmpty)

        let renamed = TestMetrics()
        let harness = try Harness(configure: {
            $0.metrics.factory = renamed; $0.metrics.labelPrefix = "payments_http"
        })
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(harness.fetch(harness.resource()).success != nil)
        #expect(renamed.counterTotal(label: "payments_http_fetches_started_total") == 1)
        #expect(renamed.counters.allSatisfy { $0.label.hasPrefix("payments_http_") })
    }

    /// Every name a test saw is in the documentation's table, under the default prefix.
    static func expectDocumented(_ metrics: TestMetrics, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let article = try String(
            contentsOf: Fixtures.certificates.deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Sources/Reference/Reference.docc/Metrics.md"), encoding: .utf8)
        for label in Set(metrics.counters.map(\.label) + metrics.timers.map(\.label)) {
            #expect(article.contains("`\(label)`"), "\(label) is not in Metrics.md", sourceLocation: sourceLocation)
        }
    }
}
