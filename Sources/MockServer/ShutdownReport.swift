/// What was left over when ``MockServer/shutdown()`` ran, so a test can assert its script was used up.
public struct ShutdownReport: Sendable, CustomStringConvertible {
    /// Scripted responses never sent, in queue order.
    public let unconsumedResponses: [MockResponse]
    /// Recorded requests never taken with ``MockServer/takeRequest(timeout:)``, in arrival order.
    public let untakenRequests: [RecordedRequest]
    /// Connections still open when shutdown began (the server closed them).
    public let openConnections: Int
    /// Connection threads that had not finished by the shutdown deadline (0 unless a dispatcher hung).
    public let unfinishedConnections: Int

    /// True when every scripted response was used and every request was taken.
    public var isClean: Bool { unconsumedResponses.isEmpty && untakenRequests.isEmpty }

    /// A short summary for test failure messages.
    public var description: String {
        "\(unconsumedResponses.count) unconsumed responses, \(untakenRequests.count) untaken requests, "
            + "\(openConnections) connections open at shutdown, \(unfinishedConnections) unfinished"
    }
}
