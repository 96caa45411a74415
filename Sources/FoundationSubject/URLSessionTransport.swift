import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Synchronization

/// Foundation's `URLSession` as a ``FetchTransport``: one data task per attempt.
final class URLSessionTransport: FetchTransport {

    private let session: URLSession

    init(configuration: URLSessionConfiguration) {
        session = URLSession(configuration: configuration)
    }

    func send(_ request: URLRequest, completion: @escaping @Sendable (Network.TransportOutcome) -> Void) -> Cancelable {
        let task = session.dataTask(with: request) { data, response, error in
            completion(Self.outcome(data: data, response: response, error: error))
        }
        task.resume()
        return DataTaskCancelable(task)
    }

    func shutDown() {
        session.invalidateAndCancel()
    }

    private static func outcome(data: Data?, response: URLResponse?, error: Error?) -> Network.TransportOutcome {
        if let error {
            // URLSession reports NSURLErrorDomain errors; bridge anything else by its code, as Alicerce does.
            let nsError = error as NSError
            return .failure(error as? URLError ?? URLError(URLError.Code(rawValue: nsError.code) ?? .unknown, userInfo: nsError.userInfo))
        }
        guard let response = response as? HTTPURLResponse else { return .noHTTPResponse(response) }
        return .response(response, body: data)
    }
}

/// A data task, cancelable through the fetch.
final class DataTaskCancelable: Cancelable, @unchecked Sendable {  // URLSessionTask is thread-safe
    private let task: URLSessionDataTask
    private let cancelled = Atomic<Bool>(false)

    init(_ task: URLSessionDataTask) { self.task = task }

    var isCancelled: Bool { cancelled.load(ordering: .relaxed) }

    func cancel() {
        guard !cancelled.exchange(true, ordering: .relaxed) else { return }
        task.cancel()
    }
}
