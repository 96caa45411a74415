import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOStack

extension NIONetworkStack {
    /// The `URLError` a fetch of `url` fails with (request timeout 10 s), or `nil` when it succeeds or fails otherwise.
    func urlError(fetching url: URL) async -> URLError? {
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(URLRequest(url: url, timeoutInterval: 10))) })
        do {
            _ = try await fetch(resource: resource)
            return nil
        } catch {
            guard case .url(let urlError) = error else { return nil }
            return urlError
        }
    }
}
