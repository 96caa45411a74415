extension Retry {

    /// What to do after an operation failed.
    public enum Action: Sendable {
        /// Take no retry action: the failure is delivered as it is.
        case none
        /// Do not retry, for the given reason.
        case noRetry(Retry.Error)
        /// Retry at once.
        case retry
        /// Retry after the delay. A delay of zero or less retries at once.
        case retryAfter(Delay)

        /// Combines two actions into the one that prevails.
        public typealias CompareClosure = @Sendable (Action, Action) -> Action

        /// The default priority: `noRetry` beats `retryAfter`, which beats `retry`, which beats `none`.
        ///
        /// Between two `noRetry`s the first (`lhs`) wins; between two `retryAfter`s the longer delay wins,
        /// and on a tie (or an unordered NaN) `rhs` wins.
        public static func mostPrioritary(_ lhs: Action, _ rhs: Action) -> Action {
            switch (lhs, rhs) {
            case (.noRetry, _): return lhs
            case (_, .noRetry): return rhs
            case (.retryAfter(let lhsDelay), .retryAfter(let rhsDelay)): return lhsDelay > rhsDelay ? lhs : rhs
            case (.retryAfter, _): return lhs
            case (_, .retryAfter): return rhs
            case (.retry, _): return lhs
            case (_, .retry): return rhs
            case (.none, .none): return lhs
            }
        }
    }
}
