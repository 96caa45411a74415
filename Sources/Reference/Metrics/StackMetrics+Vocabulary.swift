import Foundation
import NetworkCore
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The values of the metrics' dimensions: small fixed vocabularies, so that every metric has few time series
// and a dashboard written today still matches tomorrow. `Metrics.md` lists them.

extension StackMetrics {
    /// A status code's class, `2xx` to `5xx` (`1xx` too); `none` without a status, `other` outside 100...599.
    static func statusClass(_ statusCode: Int?) -> String {
        guard let statusCode else { return "none" }
        guard (100...599).contains(statusCode) else { return "other" }
        return "\(statusCode / 100)xx"
    }
}

extension Network.URLSessionError {

    /// The `outcome` and `code` dimensions of a failed fetch, or of a failed attempt that is retried.
    var metricsOutcome: (outcome: String, code: String) {
        switch self {
        case .noRequest: return ("no_request", "none")
        case .http(let status, _, _): return ("http", StackMetrics.statusClass(status.statusCode))
        case .noData(let status, _): return ("no_data", StackMetrics.statusClass(status.statusCode))
        case .url(let error): return ("url", error.code.name)
        case .badResponse: return ("bad_response", "none")
        case .cancelled: return ("cancelled", "none")
        case .retry(let reason, let state):
            // The interceptors stopped retrying: the code is that of the last attempt's failure.
            let last = (state.errors.last as? Network.URLSessionError)?.metricsOutcome.code ?? "none"
            switch reason {
            case .retries, .delay: return ("retries_exhausted", last)
            case .custom: return ("retry_refused", last)
            }
        }
    }
}

extension TrustRefusal {
    /// The `reason` dimension of a trust refusal.
    var metricsReason: String {
        switch self {
        case .chainNotTrusted: return "chain"
        case .handler: return "handler"
        case .notJudged: return "not_judged"
        }
    }
}

extension ClientCertificateExchange.Answer {
    /// The `answer` dimension of a client-certificate challenge.
    var metricsName: String {
        switch self {
        case .presented: return "presented"
        case .none: return "none"
        case .cancelled: return "cancelled"
        case .unusable: return "unusable"
        }
    }
}
