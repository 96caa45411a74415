/// Decides the response to each request, in place of the server's queue; set it with ``MockServer/dispatcher``.
///
/// The closure runs on the connection's thread, possibly on several connections at once, so it must be
/// `@Sendable` and keep its own state under a lock.
///
/// The dispatcher sees each request after its body was read, so faults it returns with a request trigger
/// (``MockFault/Trigger/afterRequestHead``, ``MockFault/Trigger/afterRequestBodyBytes(_:)``) cannot cut the
/// upload short: ``MockFault/closeAfterRequestBodyBytes(_:)`` and ``MockFault/resetAfterRequestBodyBytes(_:)``
/// then close or reset with no reply, and ``MockFault/answerWithoutReadingBody`` answers normally. Script those
/// faults through the queue (``MockServer/enqueue(_:)``), which is consulted as soon as the head arrives.
public struct MockDispatcher: Sendable {
    /// Returns the response for a recorded request (the body already read).
    public let dispatch: @Sendable (RecordedRequest) -> MockResponse
    /// Returns the fault to apply to a connection before any request exists (at accept, after the ClientHello,
    /// or before each request), given the connection index; `nil` means no fault. Only faults with those
    /// triggers (``MockFault/Trigger/atAccept``, ``MockFault/Trigger/afterClientHello``,
    /// ``MockFault/Trigger/beforeRequest``) are honoured here.
    public let connectionFault: @Sendable (_ connectionIndex: Int) -> MockFault?

    /// Creates a dispatcher from a closure.
    ///
    /// - Parameters:
    ///   - connectionFault: Faults for the moments before a request exists; by default none.
    ///   - dispatch: The response for each request.
    public init(
        connectionFault: @escaping @Sendable (_ connectionIndex: Int) -> MockFault? = { _ in nil },
        _ dispatch: @escaping @Sendable (RecordedRequest) -> MockResponse
    ) {
        self.dispatch = dispatch
        self.connectionFault = connectionFault
    }
}
