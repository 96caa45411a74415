import Foundation

/// The namespace of retry handling for any operation: actions, errors, state and policies.
public enum Retry {

    /// A number of retries.
    public typealias Retries = Int

    /// A delay, in seconds.
    public typealias Delay = TimeInterval

    /// Why an operation was not retried.
    public enum Error: Swift.Error {
        /// The maximum number of retries (the associated value) was reached.
        case retries(Retries)
        /// The maximum total delay (the associated value) was reached.
        case delay(Delay)
        /// A custom rule refused the retry.
        case custom(Swift.Error)
    }

    /// The retry history of an operation.
    ///
    /// `errors` holds the errors of the attempts that already led to a retry decision; a policy
    /// evaluating a failure sees the state *without* that failure. `totalDelay` counts only the
    /// positive delays that were actually scheduled.
    public struct State: Sendable {

        /// The errors of earlier attempts, oldest first.
        public var errors: [Swift.Error]

        /// The sum of the positive delays scheduled so far.
        public var totalDelay: Delay

        /// A state with no errors and no delay.
        public static let empty = State(errors: [], totalDelay: 0)

        /// The number of the current attempt: `errors.count + 1`.
        public var attemptCount: Int { errors.count + 1 }

        /// The number of retries so far: `errors.count`.
        public var retryCount: Int { errors.count }

        /// Creates a state.
        public init(errors: [Swift.Error], totalDelay: Delay) {
            self.errors = errors
            self.totalDelay = totalDelay
        }
    }
}
