import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension Network.URLSessionError: CustomStringConvertible, LocalizedError {

    /// One line a person can act on: what failed, for which URL, and why. A transport failure gives its `URLError`
    /// code by name and number and the stack's own account of it (for a refused server: the host, the policy, the
    /// pins configured and those of the verified chain); a status gives the URL and the decoded API error. Text that
    /// came from a server is escaped and bounded.
    public var description: String {
        switch self {
        case .noRequest(let error):
            return "no request was made: \(DisplayText.line(String(describing: error)))"
        case .http(let status, let apiError, let response):
            let api = apiError.map { "; API error: \(DisplayText.line(String(describing: $0)))" } ?? ""
            return "HTTP \(status.statusCode)\(Self.from(response)): the status is not a success\(api)"
        case .noData(let status, let response):
            return "HTTP \(status.statusCode)\(Self.from(response)) came with no body"
        case .url(let error):
            return "\(error.code.name) (\(error.code.rawValue))\(Self.for(error)): \(Self.explanation(of: error))"
        case .badResponse(let response):
            return "no HTTP response\(Self.from(response))"
        case .retry(let reason, let state):
            // The state of a fetch that gave up holds every attempt's error, the last one included.
            let count = max(1, state.errors.count)
            let attempts = count == 1 ? "1 attempt" : "\(count) attempts"
            return "gave up after \(attempts) (\(reason)); last error: \(Self.describe(state.errors.last))"
        case .cancelled:
            return "the fetch was cancelled"
        }
    }

    /// The ``description``, so that `localizedDescription` says it too.
    public var errorDescription: String? { description }

    private static func from(_ response: URLResponse?) -> String {
        guard let url = response?.url else { return "" }
        return " from \(DisplayText.line(url.absoluteString))"
    }

    private static func `for`(_ error: URLError) -> String {
        guard let url = error.failingURL else { return "" }
        return " for \(DisplayText.line(url.absoluteString))"
    }

    /// The stack's account of a transport failure: the handler's refusal, the chain's failure, the library's message,
    /// or Foundation's own description, the first there is.
    private static func explanation(of error: URLError) -> String {
        if let refusal = error.serverTrustFailure { return refusal.description }
        if let failure = error.transportFailure {
            if let chain = failure.chainValidationFailure { return "certificate chain not trusted: \(chain)" }
            return failure.description
        }
        return DisplayText.line(error.localizedDescription)
    }

    private static func describe(_ error: Error?) -> String {
        guard let error else { return "none" }
        if let error = error as? Network.URLSessionError { return error.description }
        return DisplayText.line(String(describing: error))
    }
}

extension Retry.Error: CustomStringConvertible {
    /// Which limit stopped the retries.
    public var description: String {
        switch self {
        case .retries(let limit): return "the policy allows \(limit) \(limit == 1 ? "retry" : "retries")"
        case .delay(let limit): return "the policy allows \(limit) s of delay in all"
        case .custom(let error): return "a rule refused: \(DisplayText.line(String(describing: error)))"
        }
    }
}
