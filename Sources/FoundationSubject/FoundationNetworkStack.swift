import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// The spec's HTTP stack written on Foundation's `URLSession`, as a third party would write it: the same
/// fetch flow as the reference stack (interceptors, retries, exactly-once completion, cancellation at any
/// stage, `noData`), with errors mapped from what `URLSession` reports.
///
/// It exists to be measured: the conformance suite runs against it, and `docs/foundation-divergences.md`
/// explains where Foundation on Linux cannot do what the spec asks (no server-trust challenge, no custom
/// roots, the unknown `URLError` code -1 for most transport failures).
public final class FoundationNetworkStack: StoppableNetworkStack {

    public typealias Resource = Network.URLSessionResource
    public typealias Remote = Data
    public typealias Request = URLRequest
    public typealias Response = URLResponse
    public typealias FetchError = Network.URLSessionError

    private let engine: Network.FetchEngine<URLSessionTransport>

    /// Creates a stack with its own session.
    ///
    /// - Parameters:
    ///   - configuration: the session's configuration; ephemeral by default (no cookies or cache on disk).
    ///   - retryQueue: where delayed retries wait.
    public init(configuration: URLSessionConfiguration = .ephemeral, retryQueue: DispatchQueue) {
        engine = Network.FetchEngine(transport: URLSessionTransport(configuration: configuration), retryQueue: retryQueue)
    }

    deinit {
        engine.cancelAll()
    }

    @discardableResult
    public func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        engine.fetch(resource: resource, completion: completion)
    }

    public func shutdown() async {
        await engine.shutdown()
    }

    public func finishFetchesAndInvalidateSession() {
        engine.invalidate()
    }

    public func invalidateAndCancel() {
        engine.cancelAll()
    }
}
