import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``Network/FetchEngine`` needs of an HTTP library: send one request, stop.
///
/// Implement it over any client (libcurl, `URLSession`, AsyncHTTPClient) and ``Network/FetchEngine`` gives
/// the project's whole fetch flow on top: interceptors, retries, the `URLSessionError` sorting, cancellation
/// and exactly-once completion.
public protocol FetchTransport: Sendable {

    /// Sends one request and calls `completion` exactly once with the outcome, on any thread (even before
    /// returning). The returned `Cancelable` stops the exchange; the completion may still come, and is then
    /// ignored.
    func send(_ request: URLRequest, completion: @escaping @Sendable (Network.TransportOutcome) -> Void) -> Cancelable

    /// Runs a completion where the transport wants completions delivered when the stack names no callback
    /// queue. The default runs it at once, on the calling thread.
    func deliver(_ job: @escaping @Sendable () -> Void)

    /// Stops the transport for good, once no fetch needs it: exchanges still running end as cancelled.
    func shutDown()
}

extension FetchTransport {
    public func deliver(_ job: @escaping @Sendable () -> Void) { job() }
}
