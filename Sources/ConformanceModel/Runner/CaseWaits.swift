import Dispatch
import Foundation
import MockServer

/// The events a case's action waits for, each until the case's deadline (a wait that runs out stops the case:
/// HANG), and the requests taken from the server on the way, in arrival order.
final class CaseWaits {
    let recorders: CaseRecorders
    private let server: MockServer
    private let deadline: DispatchTime
    /// The case's limit in seconds, for the hang reasons.
    private let limit: TimeInterval
    /// How long to wait for a second completion that must never come.
    private let grace: TimeInterval
    private var taken: [RecordedRequest] = []

    init(recorders: CaseRecorders, server: MockServer, deadline: DispatchTime, limit: TimeInterval, grace: TimeInterval) {
        self.recorders = recorders
        self.server = server
        self.deadline = deadline
        self.limit = limit
        self.grace = grace
    }

    private var limitText: String { String(format: "%g", limit) }

    /// One more completion, of any of the case's fetches; `stage` says which in the hang reason.
    func completion(_ stage: String) throws(CaseStop) {
        guard recorders.completions.waitForCompletion(until: deadline) else {
            throw .hang("no completion within \(limitText) s (\(stage))")
        }
    }

    /// The next request the server reads.
    func request() throws(CaseStop) {
        let remaining = max(0.1, Double(deadline.uptimeNanoseconds) / 1e9 - Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
        do {
            taken.append(try server.takeRequest(timeout: .milliseconds(Int(remaining * 1000))))
        } catch {
            throw .hang("the request never reached the server within \(limitText) s")
        }
    }

    /// The server's close of a connection (its FIN sent), by the case's deadline.
    func serverClose(ofConnection index: Int) throws(CaseStop) {
        let remaining = max(0.1, Double(deadline.uptimeNanoseconds) / 1e9 - Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
        do {
            try server.waitForClose(ofConnection: index, timeout: .milliseconds(Int(remaining * 1000)))
        } catch {
            throw .hang("the server did not close connection \(index) within \(limitText) s")
        }
    }

    /// A recording interceptor's failed hook: the first attempt failed.
    func failedAttempt() throws(CaseStop) {
        guard recorders.hooks.waitForFailure(until: deadline) else { throw .hang("the first attempt never failed") }
    }

    /// The grace period, for a completion that must not come (the completion recorder counts one that does).
    func graceWait() { _ = recorders.completions.waitForCompletion(until: .now() + grace) }

    /// Takes the requests the server has read, then waits until `moment` for one more.
    func requests(until moment: DispatchTime) {
        takeArrived()
        let remaining = max(0, Double(Int64(moment.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9)
        if let late = try? server.takeRequest(timeout: .milliseconds(Int(remaining * 1000))) { taken.append(late) }
    }

    /// Every request the server read in the case, in arrival order.
    func allRequests() -> [RecordedRequest] {
        takeArrived()
        return taken
    }

    private func takeArrived() {
        while let request = try? server.takeRequest(timeout: .zero) { taken.append(request) }
    }

    /// Ends the server's side of a cancelled fetch's connection, so that a stack that left the transfer running
    /// after the cancel sees it fail and shows it in the hooks: a failed hook, and a scheduled one when its policy
    /// retries. Without this the stalled server keeps such a transfer alive past the case, and only a crash at
    /// tear-down (a completion after the cancel) gives the bug away.
    ///
    /// A stack that stopped the transfer has closed its HTTP/1.1 connection already: waiting for that close
    /// first keeps the journal's "closed by" the client's, the same on every run. Then the server shuts down
    /// (idempotent; the case shuts it down again at its end), and the runner waits, up to the grace period, for a
    /// failed hook that must not come.
    func endAbandonedTransfer() {
        if let connection = taken.last?.connectionIndex { _ = try? server.waitForClose(ofConnection: connection, timeout: .seconds(1)) }
        server.shutdown()
        _ = recorders.hooks.waitForFailure(until: .now() + grace)
    }
}
