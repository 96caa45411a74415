import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

extension Outcome {

    /// The outcome of a fetch's result.
    package init(_ result: Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) {
        switch result {
        case .success(let value):
            self.init(
                kind: .success, status: (value.response as? HTTPURLResponse)?.statusCode, body: String(decoding: value.value, as: UTF8.self)
            )
        case .failure(let error):
            self.init(error)
        }
    }

    /// The outcome of a fetch's error.
    package init(_ error: Network.URLSessionError) {
        switch error {
        case .noRequest(let underlying):
            self.init(kind: .noRequest, detail: "\(underlying)")
        case .http(let status, let apiError, _):
            self.init(kind: .http, status: status.statusCode, apiError: apiError.map { "\($0)" } ?? "none")
        case .noData(let status, _):
            self.init(kind: .noData, status: status.statusCode)
        case .url(let urlError):
            self.init(
                kind: .url, urlErrorCode: urlError.code.rawValue, trustFailure: Self.trustFailure(urlError),
                detail: urlError.localizedDescription)
        case .badResponse(let response):
            self.init(
                kind: .badResponse, status: (response as? HTTPURLResponse)?.statusCode,
                detail: response.map { "\(type(of: $0))" } ?? "no response")
        case .retry(let retryError, let state):
            let last = state.errors.last as? Network.URLSessionError
            let lastOutcome = last.map { Outcome($0) }
            self.init(
                kind: .retry, status: error.statusCode?.statusCode, urlErrorCode: lastOutcome?.urlErrorCode,
                retryError: ActionName.describe(retryError), attempts: state.errors.count, totalDelay: state.totalDelay,
                lastErrorKind: lastOutcome?.kind)
        case .cancelled:
            self.init(kind: .cancelled)
        }
    }

    /// `handler:<reason>` or `chain:<kind>`, from the transport failure the stack recorded.
    static func trustFailure(_ error: URLError) -> String? {
        if let failure = error.serverTrustFailure {
            return "handler:\(failure.reason)"
        }
        return error.transportFailure?.chainValidationFailure.map { "chain:\($0.kind.rawValue)" }
    }
}
