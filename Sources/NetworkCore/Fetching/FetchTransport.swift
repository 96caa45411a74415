import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What a ``Network/FetchEngine`` needs of an HTTP library: send one request, stop.
///
/// Implement it over any client (libcurl, `URLSession`, AsyncHTTPClient) and ``Network/FetchEngine`` gives
/// the project's whole fetch flow on top: interceptors, retries, the `URLSessionError` sorting, cancellation
/// and exactly-once completion.
///
/// Who does what. The engine makes the request (through the resource and its interceptors), decides retries, and
/// sorts an outcome into a `URLSessionError`. Everything on the wire is the transport's, because only it sees the
/// wire: refusing a scheme other than `http` and `https` and a header holding CR, LF or NUL before anything is
/// sent (HTTP-5), following redirects by the project's rules (which methods, at most how many, never from `https`
/// to anything else: HTTP-9 to HTTP-14, HTTP-19), timeouts (HTTP-7, ERR-7), a response size limit, server
/// trust and client certificates through the stack's `AuthenticationChallengeHandler` (TRUST rules), and the
/// `URLError` code of each failure (ERR-6 and on). It reports the final response of a followed redirect, or
/// the failure, as one ``Network/TransportOutcome``.
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
