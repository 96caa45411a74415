import NetworkCore

/// Short names of retry actions and errors for reports.
package enum ActionName {
    package static func describe(_ action: Retry.Action) -> String {
        switch action {
        case .none: "none"
        case .retry: "retry"
        case .retryAfter(let delay): "retryAfter(\(delay))"
        case .noRetry(let error): "noRetry(\(describe(error)))"
        }
    }

    package static func describe(_ error: Retry.Error) -> String {
        switch error {
        case .retries(let retries): "retries(\(retries))"
        case .delay(let delay): "delay(\(delay))"
        case .custom(let error): "custom(\(error))"
        }
    }
}
