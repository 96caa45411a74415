extension Retry {

    /// A rule that turns a failure into a ``Retry/Action``.
    ///
    /// `Metadata` carries whatever a custom rule needs to know about the operation; for a
    /// ``Network/URLSessionResource`` it is the request, the payload and the response.
    public enum Policy<Metadata>: Sendable {

        /// Retry at once, at most `Retries` times.
        case maxRetries(Retries)
        /// Retry after a delay computed by a backoff strategy, until its truncation rule stops it.
        case backoff(Backoff)
        /// Ask a closure.
        case custom(Rule)

        /// A custom rule: the failure, the state before it, and the operation's metadata.
        public typealias Rule = @Sendable (Swift.Error, State, Metadata) -> Action

        /// A backoff strategy.
        public enum Backoff: Sendable {

            /// Computes the delay of a retry from the base delay and the 1-based number of that retry.
            public typealias Scale = @Sendable (Delay, Retries) -> Delay

            /// When a backoff stops retrying.
            public enum Truncation: Sendable {
                /// After this many retries.
                case maxRetries(Retries)
                /// Once the scheduled delays add up to this much. Each exponential delay is also capped at it.
                case maxDelay(Delay)
            }

            /// The same delay every time.
            case constant(delay: Delay, until: Truncation)
            /// A delay given by `scale(baseDelay, retry)`: the curve is the caller's.
            case exponential(baseDelay: Delay, scale: Scale, until: Truncation)
        }

        /// Evaluates the policy for a failure.
        ///
        /// Limits are inclusive: `maxRetries(N)` allows exactly N retries, and `maxDelay(D)` stops once
        /// the scheduled total reaches D (which the last delay may overshoot).
        ///
        /// - Parameters:
        ///   - error: the failure being evaluated.
        ///   - state: the history *before* this failure.
        ///   - metadata: what a custom rule may inspect.
        public func shouldRetry(with error: Swift.Error, state: State, metadata: Metadata) -> Action {
            let retries = state.retryCount
            switch self {
            case .maxRetries(let max):
                return retries >= max ? .noRetry(.retries(max)) : .retry

            case .backoff(.constant(let delay, let truncation)):
                if let limit = truncation.reached(retries: retries, totalDelay: state.totalDelay) { return .noRetry(limit) }
                return .retryAfter(delay)

            case .backoff(.exponential(let baseDelay, let scale, let truncation)):
                if let limit = truncation.reached(retries: retries, totalDelay: state.totalDelay) { return .noRetry(limit) }
                let delay = scale(baseDelay, retries + 1)
                if case .maxDelay(let max) = truncation { return .retryAfter(min(delay, max)) }
                return .retryAfter(delay)

            case .custom(let rule):
                return rule(error, state, metadata)
            }
        }
    }
}

extension Retry.Policy.Backoff.Truncation {

    /// The error to stop with, if this truncation's limit has been reached.
    fileprivate func reached(retries: Retry.Retries, totalDelay: Retry.Delay) -> Retry.Error? {
        switch self {
        case .maxRetries(let max): return retries >= max ? .retries(max) : nil
        case .maxDelay(let max): return totalDelay >= max ? .delay(max) : nil
        }
    }
}
