import Foundation
import Synchronization

/// A network stack: fetches resources and completes with a value or an error, exactly once.
public protocol NetworkStack: AnyObject, Sendable {

    /// The unit of work, e.g. ``Network/URLSessionResource``.
    associatedtype Resource
    /// The raw payload, e.g. `Data`.
    associatedtype Remote
    /// The underlying client's request type, e.g. `URLRequest`.
    associatedtype Request
    /// The underlying client's response type, e.g. `URLResponse`.
    associatedtype Response
    /// The error of a fetch, e.g. ``Network/URLSessionError``.
    associatedtype FetchError: Error

    /// The result of a fetch.
    typealias FetchResult = Result<Network.Value<Remote, Response>, FetchError>

    /// Receives the result of a fetch.
    typealias FetchCompletionClosure = @Sendable (FetchResult) -> Void

    /// Fetches a resource.
    ///
    /// - Returns: a cancelable; cancelling it completes the fetch (once) with the stack's cancellation error.
    @discardableResult
    func fetch(resource: Resource, completion: @escaping FetchCompletionClosure) -> Cancelable
}

extension NetworkStack {

    /// Fetches a resource and decodes a model from its payload.
    ///
    /// - Returns: the fetch's cancelable.
    @discardableResult
    public func fetchAndDecode<T>(
        resource: Resource,
        decoding: ModelDecoding<T, Remote, Response>,
        completion: @escaping @Sendable (Result<Network.Value<T, Response>, FetchAndDecodeError>) -> Void
    ) -> Cancelable {
        fetch(resource: resource) { result in
            switch result {
            case .success(let value):
                do {
                    completion(.success(try value.mapValue(decoding.decode)))
                } catch {
                    completion(.failure(.decode(error)))
                }
            case .failure(let error):
                completion(.failure(.fetch(error)))
            }
        }
    }
}

extension NetworkStack where Resource: Sendable, Remote: Sendable, Response: Sendable {

    /// Fetches a resource; cancelling the calling task cancels the fetch.
    public func fetch(resource: Resource) async throws(FetchError) -> Network.Value<Remote, Response> {
        let bag = CancelableBag()
        let result = await withTaskCancellationHandler {
            await withUnsafeContinuation { (continuation: UnsafeContinuation<FetchResult, Never>) in
                // A stack that completes a fetch twice is broken, but must not crash its caller: the first
                // completion wins, later ones are dropped.
                let once = Atomic<Bool>(false)
                bag += fetch(resource: resource) { result in
                    guard !once.exchange(true, ordering: .acquiringAndReleasing) else { return }
                    continuation.resume(returning: result)
                }
            }
        } onCancel: {
            bag.cancel()
        }
        return try result.get()
    }

    /// Fetches a resource and decodes a model; cancelling the calling task cancels the fetch.
    public func fetchAndDecode<T: Sendable>(
        resource: Resource,
        decoding: ModelDecoding<T, Remote, Response>
    ) async throws(FetchAndDecodeError) -> Network.Value<T, Response> {
        let value: Network.Value<Remote, Response>
        do {
            value = try await fetch(resource: resource)
        } catch {
            throw .fetch(error)
        }
        do {
            return try value.mapValue(decoding.decode)
        } catch {
            throw .decode(error)
        }
    }
}
