import Foundation

/// The limits both stacks of this package start from, so that a fetch is bounded alike on each.
public enum TransportDefaults {
    /// The largest response body accepted, in bytes: 100 MiB, so that a small compressed body cannot expand into
    /// gigabytes of memory.
    public static let maximumResponseSize = 100 * 1024 * 1024

    /// The longest one attempt may take, however steadily bytes arrive: seven days, as
    /// `URLSessionConfiguration.timeoutIntervalForResource`.
    public static let timeoutIntervalForResource: TimeInterval = 7 * 24 * 60 * 60
}
