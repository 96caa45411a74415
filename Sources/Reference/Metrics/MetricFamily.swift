import CoreMetrics
import NetworkCore

/// One metric name and its metrics, one per combination of dimension values, each made on first use and kept:
/// a fetch then costs a dictionary look-up rather than a factory call.
///
/// The values must come from small, fixed vocabularies (an outcome, a status class, a `URLError` code name),
/// so the family stays small: every combination is a time series of its own.
final class MetricFamily<Metric: Sendable>: Sendable {

    private let label: String
    private let names: [String]
    private let common: [(String, String)]
    private let make: @Sendable (_ label: String, _ dimensions: [(String, String)]) -> Metric
    private let made = Locked<[[String]: Metric]>([:])

    /// - Parameters:
    ///   - label: the metric's full name.
    ///   - names: the names of the dimensions whose values are given per use.
    ///   - common: dimensions every metric of the family carries (the stack's own).
    ///   - make: makes the metric for a label and its dimensions, through the stack's factory.
    init(
        label: String, names: [String], common: [(String, String)],
        make: @escaping @Sendable (_ label: String, _ dimensions: [(String, String)]) -> Metric
    ) {
        self.label = label
        self.names = names
        self.common = common
        self.make = make
    }

    /// The metric for these values of the family's dimensions, in the order of their names.
    func callAsFunction(_ values: String...) -> Metric {
        made.withLock { made in
            if let metric = made[values] { return metric }
            // Made under the lock, so that two threads never make the same metric twice.
            let metric = make(label, Array(zip(names, values)) + common)
            made[values] = metric
            return metric
        }
    }
}
