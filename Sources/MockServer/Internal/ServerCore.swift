#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Everything the listener and connection threads share, under one condition lock.
///
/// Threads hold this object, never the ``MockServer``, so dropping the last reference to the server runs its
/// `deinit` and shuts everything down.
final class ServerCore: @unchecked Sendable {
    let tls: TLSContext?
    let maximumRequestBodySize: Int
    private let recordsRequests: Bool
    private let condition = NSCondition()

    // MARK: State guarded by `condition`
    private var queue: [MockResponse] = []
    private var dispatcherStorage: MockDispatcher?
    private var requests: [RecordedRequest] = []
    private var journal: [ConnectionRecord] = []
    private var sockets: [Int: Int32] = [:]
    private var runningThreads = 0
    private var shuttingDown = false

    init(tls: TLSContext?, recordsRequests: Bool, maximumRequestBodySize: Int) {
        self.tls = tls
        self.maximumRequestBodySize = maximumRequestBodySize
        self.recordsRequests = recordsRequests
    }

    private func locked<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer { condition.unlock() }
        return try body()
    }

    /// Changes state and wakes every waiter; waiters re-check their own predicate.
    private func lockedAndBroadcast<T>(_ body: () throws -> T) rethrows -> T {
        condition.lock()
        defer {
            condition.broadcast()
            condition.unlock()
        }
        return try body()
    }

    /// Waits until `ready` returns a value or the deadline passes; the predicate runs under the lock.
    private func wait<T>(until deadline: Date, _ ready: () -> T?) -> T? {
        condition.lock()
        defer { condition.unlock() }
        while true {
            if let value = ready() { return value }
            // Bounded: every iteration either returns or sleeps until the deadline at the latest.
            if !condition.wait(until: deadline) { return ready() }
        }
    }

    // MARK: Script

    var isShuttingDown: Bool { locked { shuttingDown } }

    var dispatcher: MockDispatcher? {
        get { locked { dispatcherStorage } }
        set { lockedAndBroadcast { dispatcherStorage = newValue } }
    }

    func enqueue(_ response: MockResponse) {
        lockedAndBroadcast { queue.append(response) }
    }

    /// The fault for a moment before any request exists; a queued response carrying one is consumed.
    func connectionFault(connection: Int, triggers: Set<MockFault.Trigger>) -> MockFault? {
        let queued: MockFault?? = locked {
            guard dispatcherStorage == nil else { return nil }
            guard let fault = queue.first?.fault, triggers.contains(fault.trigger) else { return .some(nil) }
            queue.removeFirst()
            return .some(fault)
        }
        if let queued { return queued }
        // The dispatcher's closure is the user's code: it runs outside the lock, so it may call back into the server
        // (enqueue, read the journal) as `dispatch` lets it.
        guard let dispatcher, let fault = dispatcher.connectionFault(connection), triggers.contains(fault.trigger) else { return nil }
        return fault
    }

    /// The queued response for a request whose head was just read; `nil` when a dispatcher decides after the body.
    func queuedResponse() -> MockResponse? {
        locked {
            guard dispatcherStorage == nil else { return nil }
            // Fail fast on an empty script: a blocked connection would only turn a test bug into a timeout.
            return queue.isEmpty ? Self.unscripted : queue.removeFirst()
        }
    }

    static let unscripted = MockResponse(
        status: 404, headers: [(name: "Content-Type", value: "text/plain")],
        body: Data("MockServer: no scripted response\n".utf8))

    func dispatch(_ request: RecordedRequest) -> MockResponse {
        // The user's closure runs outside the lock, so it may call back into the server.
        guard let dispatcher = self.dispatcher else { return queuedResponse() ?? Self.unscripted }
        return dispatcher.dispatch(request)
    }

    // MARK: Requests and journal

    /// Records a request and the connection's bytes read since the last report, in one lock round.
    func record(_ request: RecordedRequest, bytesReceived: Int) {
        lockedAndBroadcast {
            if recordsRequests { requests.append(request) }
            journal[request.connectionIndex].requestCount += 1
            journal[request.connectionIndex].applicationBytesReceived += bytesReceived
        }
    }

    /// The oldest request; `.failure(.shutDown)` once shut down with nothing left, so callers stop waiting early.
    func takeRequest(until deadline: Date) -> Result<RecordedRequest, MockServerError>? {
        wait(until: deadline) {
            if !requests.isEmpty { return .success(requests.removeFirst()) }
            return shuttingDown ? .failure(MockServerError.shutDown) : nil
        }
    }

    func waitForConnections(_ count: Int, until deadline: Date) -> Bool {
        wait(until: deadline) { journal.count >= count ? true : nil } ?? false
    }

    /// The record of connection `index` once it is closed, or nil at the deadline.
    func waitForClose(of index: Int, until deadline: Date) -> ConnectionRecord? {
        wait(until: deadline) { journal.count > index && journal[index].closedBy != nil ? journal[index] : nil }
    }

    var journalSnapshot: [ConnectionRecord] { locked { journal } }

    func updateConnection(_ index: Int, _ change: (inout ConnectionRecord) -> Void) {
        lockedAndBroadcast { change(&journal[index]) }
    }

    // MARK: Connections and threads

    /// Registers an accepted socket and returns its connection index, or nil when shutting down.
    func register(socket fd: Int32, peerPort: Int) -> Int? {
        lockedAndBroadcast {
            guard !shuttingDown else { return nil }
            let index = journal.count
            journal.append(ConnectionRecord(index: index, peerPort: peerPort, tls: tls != nil))
            sockets[index] = fd
            runningThreads += 1
            return index
        }
    }

    /// Hands the socket back for closing; after this, shutdown no longer touches it, so its number may be reused.
    func release(socket index: Int) {
        _ = locked { sockets.removeValue(forKey: index) }
    }

    func threadStarted() { lockedAndBroadcast { runningThreads += 1 } }
    func threadFinished() { lockedAndBroadcast { runningThreads -= 1 } }

    /// Sleeps for `duration` unless shutdown starts first; true when the full duration passed.
    func sleep(_ duration: Duration) -> Bool {
        let deadline = Date(timeIntervalSinceNow: duration.seconds)
        return wait(until: deadline) { shuttingDown ? true : nil } == nil
    }

    /// Stops accepting, wakes every blocked connection, and waits (bounded) for the threads to finish.
    func shutdown(budget: Duration) -> ShutdownReport {
        let open = lockedAndBroadcast { () -> Int in
            shuttingDown = true
            // Wakes threads blocked in recv, SSL_read, SSL_accept or send: they see EOF or EPIPE and finish.
            for fd in sockets.values { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
            return sockets.count
        }
        let deadline = Date(timeIntervalSinceNow: budget.seconds)
        _ = wait(until: deadline) { runningThreads == 0 ? true : nil }
        return locked {
            let report = ShutdownReport(
                unconsumedResponses: queue, untakenRequests: requests,
                openConnections: open, unfinishedConnections: runningThreads)
            return report
        }
    }
}

extension Duration {
    var seconds: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
