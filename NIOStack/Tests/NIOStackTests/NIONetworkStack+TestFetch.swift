import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOStack

extension NetworkStack
where Resource == Network.URLSessionResource, Remote == Data, Response == URLResponse, FetchError == Network.URLSessionError {
    /// How a fetch of `url` (request timeout 10 s) completed, on any of the package's stacks.
    func result(fetching url: URL) async -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        await result(sending: URLRequest(url: url, timeoutInterval: 10))
    }

    /// How a fetch of `request` completed.
    func result(sending request: URLRequest) async -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        let resource = Network.URLSessionResource(baseRequestMaking: .init { $0(.success(request)) })
        return await withCheckedContinuation { continuation in
            fetch(resource: resource) { continuation.resume(returning: $0) }
        }
    }

    /// The `URLError` a fetch of `url` fails with, or `nil` when it succeeds or fails otherwise.
    func urlError(fetching url: URL) async -> URLError? {
        await urlError(sending: URLRequest(url: url, timeoutInterval: 10))
    }

    /// The `URLError` a fetch of `request` fails with, or `nil` when it succeeds or fails otherwise.
    func urlError(sending request: URLRequest) async -> URLError? {
        guard case .failure(.url(let urlError)) = await result(sending: request) else { return nil }
        return urlError
    }
}
