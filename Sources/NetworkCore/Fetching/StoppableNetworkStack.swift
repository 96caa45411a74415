/// The ways a stack stops, meaning the same on every stack of the package.
///
/// Each is one of ``Network/FetchEngine``'s, so a stack built on the engine conforms by forwarding to it:
///
/// - ``shutdown()`` is the graceful stop a service lifecycle awaits: new fetches complete at once with
///   ``Network/URLSessionError/cancelled``, those in flight finish (retries included), then the transport stops
///   and the call returns.
/// - ``finishFetchesAndInvalidateSession()`` is the same stop without waiting for it.
/// - ``invalidateAndCancel()`` is the abrupt stop: every fetch in flight completes with `.cancelled` at once, and
///   new ones too. Releasing the stack does the same.
///
/// Every fetch still completes exactly once, whichever stop comes first, and a second stop changes nothing.
public protocol StoppableNetworkStack: NetworkStack {

    /// Refuses new fetches, waits until the fetches in flight have completed (retries included), then stops the
    /// transport.
    func shutdown() async

    /// Refuses new fetches and lets those in flight finish (retries included), then stops the transport; returns at
    /// once.
    func finishFetchesAndInvalidateSession()

    /// Completes every fetch in flight with ``Network/URLSessionError/cancelled``, refuses new ones, and stops the
    /// transport.
    func invalidateAndCancel()
}
