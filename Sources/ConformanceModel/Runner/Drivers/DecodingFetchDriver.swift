import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// ``CaseAction/fetchAndDecode``: one `fetchAndDecode` of the JSON model `{"name": String}`; the outcome is the
/// decoded name, or the failure of the fetch or of the decoding.
struct DecodingFetchDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        let completions = fetches.recorders.completions
        fetches.stack.fetchAndDecode(resource: fetches.resource, decoding: ModelDecoding<DecodedName, Data, URLResponse>.json()) { result in
            switch result {
            case .success(let value):
                completions.complete(
                    Outcome(kind: .success, status: (value.response as? HTTPURLResponse)?.statusCode, body: value.value.name))
            case .failure(.decode(let error)): completions.complete(Outcome(kind: .decodeFailure, detail: "\(error)"))
            case .failure(.fetch(let error as Network.URLSessionError)): completions.complete(Outcome(error))
            case .failure(.fetch(let error)): completions.complete(Outcome(kind: .noRequest, detail: "not a URLSessionError: \(error)"))
            }
        }
        try waits.completion("fetchAndDecode")
    }
}
