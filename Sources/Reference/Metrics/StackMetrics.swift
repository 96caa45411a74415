import CoreMetrics
import Foundation
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The counters and timers of one stack, made when the stack is created; the names are in the Reference
/// documentation's "Metrics" article (`Metrics.md`), which a test keeps true.
///
/// A stack has none (`nil`) when metrics are off or no factory is bootstrapped, so that it pays nothing per
/// fetch or handshake for metrics that would go nowhere.
final class StackMetrics: Sendable {

    /// Whether a trust decision was made in a connection's own handshake or before a request on a reused one.
    enum Connection: String {
        case new, reused
    }

    /// Whether a new connection's handshake verified the server's chain, or resumed a session whose kept trust was
    /// judged again.
    enum Session: String {
        case full, resumed
    }

    private let fetchesStarted: Counter
    private let fetchesCompleted: MetricFamily<Counter>
    private let fetchDuration: MetricFamily<CoreMetrics.Timer>
    private let retries: MetricFamily<Counter>
    private let handshakes: MetricFamily<Counter>
    private let trustRefusals: MetricFamily<Counter>
    private let clientCertificateChallenges: MetricFamily<Counter>

    /// The metrics a configuration asks for, or `nil` when they are off or would go nowhere.
    init?(_ configuration: Network.URLSessionNetworkStack.MetricsConfiguration) {
        let factory = configuration.factory ?? MetricsSystem.factory
        guard configuration.isEnabled, !(factory is NOOPMetricsHandler) else { return nil }
        let prefix = configuration.labelPrefix
        let common = configuration.dimensions
        func counters(_ name: String, _ dimensions: [String]) -> MetricFamily<Counter> {
            MetricFamily(label: "\(prefix)_\(name)", names: dimensions, common: common) {
                Counter(label: $0, dimensions: $1, factory: factory)
            }
        }
        fetchesStarted = Counter(label: "\(prefix)_fetches_started_total", dimensions: common, factory: factory)
        fetchesCompleted = counters("fetches_completed_total", ["outcome", "code"])
        fetchDuration = MetricFamily(label: "\(prefix)_fetch_duration_seconds", names: ["outcome"], common: common) {
            CoreMetrics.Timer(label: $0, dimensions: $1, factory: factory)
        }
        retries = counters("retries_total", ["outcome", "code"])
        handshakes = counters("tls_handshakes_total", ["verdict", "session"])
        trustRefusals = counters("trust_refusals_total", ["reason", "connection"])
        clientCertificateChallenges = counters("client_certificate_challenges_total", ["answer"])
    }

    // MARK: TLS (called from the OpenSSL and libcurl callbacks, on the transport thread)

    /// A new connection's handshake judged its server.
    func handshakeJudged(_ verdict: TrustVerdict, session: Session = .full) {
        handshakes(verdict.isAccepted ? "trusted" : "refused", session.rawValue).increment()
        trustRefused(verdict, connection: .new)
    }

    /// A reused connection's server was judged again before a request; counts only a refusal.
    func trustRefused(_ verdict: TrustVerdict, connection: Connection) {
        guard let reason = verdict.refusal?.metricsReason else { return }
        trustRefusals(reason, connection.rawValue).increment()
    }

    /// The handler refused to answer a server's request for a client certificate.
    func clientCertificateRefused(connection: Connection) {
        trustRefusals("client_certificate", connection.rawValue).increment()
    }

    /// A server asked for a client certificate in a handshake, and the handler answered.
    func clientCertificateRequested(_ answer: ClientCertificateExchange.Answer) {
        clientCertificateChallenges(answer.metricsName).increment()
        if case .cancelled = answer { clientCertificateRefused(connection: .new) }
    }
}

extension StackMetrics: FetchObserver {

    func fetchStarted() {
        fetchesStarted.increment()
    }

    func retryScheduled(after error: Network.URLSessionError) {
        let (outcome, code) = error.metricsOutcome
        retries(outcome, code).increment()
    }

    func fetchCompleted(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>, duration: Duration) {
        let (outcome, code): (String, String)
        switch result {
        case .success(let value):
            (outcome, code) = ("success", Self.statusClass((value.response as? HTTPURLResponse)?.statusCode))
        case .failure(let error):
            (outcome, code) = error.metricsOutcome
        }
        fetchesCompleted(outcome, code).increment()
        fetchDuration(outcome).recordNanoseconds(duration.nanoseconds)
    }
}

extension Duration {
    /// The duration in whole nanoseconds, as a swift-metrics timer records it.
    fileprivate var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
