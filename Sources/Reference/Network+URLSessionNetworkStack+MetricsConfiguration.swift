import CoreMetrics

extension Network.URLSessionNetworkStack {

    /// Where a stack reports its counters and timers (through swift-metrics), and under which names.
    ///
    /// Metrics are off unless a metrics factory is bootstrapped (`MetricsSystem.bootstrap`) before the stack is
    /// created, or one is named here: swift-metrics' default factory records nothing, and a stack that finds
    /// it creates no metric and pays nothing per fetch. The names and labels are listed in the Reference
    /// documentation's "Metrics" article.
    public struct MetricsConfiguration: Sendable {

        /// Whether the stack reports metrics at all; `true` by default (they still go nowhere without a factory).
        public var isEnabled = true

        /// The factory that makes the stack's metrics; `nil` (the default) takes `MetricsSystem.factory` when the
        /// stack is created, so bootstrap the metrics system first.
        public var factory: (any MetricsFactory)?

        /// The start of every metric's name, `pinnednetwork` by default: `pinnednetwork_fetches_started_total`.
        ///
        /// Keep it a valid Prometheus name (letters, digits and underscores, not starting with a digit).
        public var labelPrefix = "pinnednetwork"

        /// Dimensions added to every metric of the stack, to tell stacks apart (`[("stack", "payments")]`);
        /// empty by default. Keep their values few and stable: each value is a time series of its own.
        public var dimensions: [(String, String)] = []

        /// Creates the default: metrics on, through the bootstrapped factory, prefixed `pinnednetwork`.
        public init() {}
    }
}
