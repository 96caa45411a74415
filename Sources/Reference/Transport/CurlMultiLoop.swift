internal import CCurl
internal import CShims
import Foundation
import NetworkCore

/// The stack's one transport thread: owns a libcurl multi handle (and so its connection cache), adds and
/// removes transfers, times out idle ones, and runs jobs posted to it (completions among them).
///
/// Other threads talk to it only through the inbox, under a lock, then `curl_multi_wakeup`; everything
/// else is touched on the loop thread alone, which is why the class can be `@unchecked Sendable`.
final class CurlMultiLoop: @unchecked Sendable {

    /// Connections kept open for reuse. libcurl's default follows the number of transfers present at each
    /// moment, so between bursts it closes connections it will need again at once.
    static let connectionCacheSize = 64

    private struct Inbox {
        var adds: [CurlTransfer] = []
        var cancels: [CurlTransfer] = []
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
        var stopped = false
    }

    /// Easy handles for this loop's transfers, reused between them.
    let easyHandles = CurlEasyPool()
    /// The multi handle; `nil` when it could not be set up, and then no thread runs.
    private let multi: UnsafeMutableRawPointer?
    private let inbox = Locked(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let loopThread = Locked<pthread_t?>(nil)
    /// Why the multi handle could not be set up: every transfer fails with it.
    private let setupFailure: TransportFailure?

    /// - Parameter maximumConnectionsPerHost: libcurl's per-host limit; 0 sets none.
    init(maximumConnectionsPerHost: Int) {
        CurlGlobal.ensureInitialized()
        let multi = curl_multi_init()
        setupFailure = Self.configure(multi, maximumConnectionsPerHost: maximumConnectionsPerHost)
        guard setupFailure == nil else {
            if let multi { _ = curl_multi_cleanup(multi) }
            self.multi = nil
            inbox.withLock { $0.stopped = true }  // jobs then run on a global queue
            return
        }
        self.multi = multi
        let thread = Thread { [self] in run() }
        thread.name = "Reference.CurlMultiLoop"
        thread.start()
    }

    private static func configure(_ multi: UnsafeMutableRawPointer?, maximumConnectionsPerHost: Int) -> TransportFailure? {
        guard let multi else { return TransportFailure(library: "libcurl", code: 0, message: "curl_multi_init failed") }
        // One transfer per connection at a time: libcurl 7.88 marks a host as multiplexing once it reads an
        // `HTTP/2` status line, even on an HTTP/1.1 connection, and with a per-host limit the fetches queued
        // for that host then wait on a connection that never serves them.
        let options: [(CURLMoption, Int, String)] = [
            (CURLMOPT_PIPELINING, 0, "CURLMOPT_PIPELINING"),  // CURLPIPE_NOTHING
            (CURLMOPT_MAXCONNECTS, connectionCacheSize, "CURLMOPT_MAXCONNECTS"),
            (CURLMOPT_MAX_HOST_CONNECTIONS, maximumConnectionsPerHost, "CURLMOPT_MAX_HOST_CONNECTIONS"),
        ]
        for (option, value, name) in options {
            let code = cshims_multi_setopt_long(multi, option, value)
            if code != CURLM_OK { return multiFailure("curl_multi_setopt(\(name))", code) }
        }
        return nil
    }

    /// Whether the caller runs on the loop thread.
    var isOnLoopThread: Bool {
        guard let owner = loopThread.withLock({ $0 }) else { return false }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// Starts a transfer; if the loop has stopped, the transfer completes as cancelled.
    func submit(_ transfer: CurlTransfer) {
        if let setupFailure { return transfer.complete(failing: .cannotLoadFromNetwork, setupFailure) }
        let accepted = post { $0.adds.append(transfer) }
        if !accepted { transfer.completeCancelled() }
    }

    /// Cancels a transfer: it completes as cancelled, unless it already completed.
    func cancel(_ transfer: CurlTransfer) {
        _ = post { $0.cancels.append(transfer) }
    }

    /// Runs a job on the loop thread; after the loop stopped, on a global queue.
    func execute(_ job: @escaping @Sendable () -> Void) {
        if !post({ $0.jobs.append(job) }) { DispatchQueue.global().async(execute: job) }
    }

    /// Stops the loop: transfers in flight complete as cancelled, jobs already posted run, then the thread
    /// exits and frees the multi handle. Returns at once.
    func stop() {
        _ = post { $0.stopping = true }
    }

    private func post(_ change: (inout Inbox) -> Void) -> Bool {
        let onLoopThread = isOnLoopThread
        return inbox.withLock { inbox -> Bool in
            guard !inbox.stopped else { return false }
            change(&inbox)
            // On the loop thread the inbox is drained before the next poll, so no wake-up is needed. The
            // wake-up happens under the lock: the loop frees the multi handle only after marking itself
            // stopped under the same lock. A failed wake-up leaves the poll to end at its timeout.
            if !onLoopThread, let multi { _ = curl_multi_wakeup(multi) }
            return true
        }
    }

    // MARK: The loop thread

    private func run() {
        loopThread.withLock { $0 = pthread_self() }
        while true {
            let work = inbox.withLock { inbox -> Inbox in
                defer { inbox.adds = []; inbox.cancels = []; inbox.jobs = [] }
                return inbox
            }
            work.jobs.forEach { $0() }
            for transfer in work.adds { add(transfer, stopping: work.stopping) }
            for transfer in work.cancels {
                stopExchange(of: transfer)
                remove(transfer)?.completeCancelled()
            }
            if work.stopping {
                finishStopping()
                return
            }
            perform()
            let hasWork = inbox.withLock { !$0.adds.isEmpty || !$0.cancels.isEmpty || !$0.jobs.isEmpty || $0.stopping }
            if !hasWork { poll() }
        }
    }

    private func add(_ transfer: CurlTransfer, stopping: Bool) {
        guard let multi, !stopping else { return transfer.completeCancelled() }
        let easy = transfer.easy.handle
        active[easy] = transfer
        let code = curl_multi_add_handle(multi, easy)
        if code != CURLM_OK {
            active[easy] = nil
            transfer.complete(failing: .cannotLoadFromNetwork, Self.multiFailure("curl_multi_add_handle", code))
        }
    }

    /// Takes a transfer out of the multi handle; `nil` if it was not in it.
    private func remove(_ transfer: CurlTransfer) -> CurlTransfer? {
        let easy = transfer.easy.handle
        guard let multi, active.removeValue(forKey: easy) != nil else { return nil }
        // Removing fails only for a handle that is not in the multi handle, which `active` rules out.
        _ = curl_multi_remove_handle(multi, easy)
        return transfer
    }

    /// Makes the removal of a cancelled transfer stop its exchange on the wire (CANCEL-3). Over HTTP/1.1 removing a
    /// transfer in progress closes its connection; over HTTP/2 libcurl 7.88 only queues the stream's RST_STREAM, sent
    /// when the connection is next used, so the server goes on sending, or waiting, for a response nobody reads.
    /// Forbidding reuse closes the connection at the removal when no other stream uses it; one that carries others
    /// sends the reset as they progress. A reset easy handle forgets the option.
    private func stopExchange(of transfer: CurlTransfer) {
        guard active[transfer.easy.handle] != nil else { return }
        try? transfer.easy.set(CURLOPT_FORBID_REUSE, 1)
    }

    /// Starts a transfer over from the beginning, on a new connection: removing and adding an easy handle restarts
    /// it. The pre-request callback counts the new send against the replay bound. `false` if libcurl refused.
    private func sendAgain(_ transfer: CurlTransfer) -> Bool {
        guard let multi else { return false }
        let easy = transfer.easy.handle
        _ = curl_multi_remove_handle(multi, easy)
        return curl_multi_add_handle(multi, easy) == CURLM_OK
    }

    private func perform() {
        guard let multi, !active.isEmpty else { return }
        var running: Int32 = 0
        let code = curl_multi_perform(multi, &running)
        if code != CURLM_OK { return failAll(Self.multiFailure("curl_multi_perform", code)) }
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle,
                let transfer = active[easy]
            else { continue }
            let code = message.pointee.data.result
            if transfer.wasExcludedByGoAway(code) || transfer.startsOverOnNewConnection(), sendAgain(transfer) { continue }
            remove(transfer)?.complete(code: code)
        }
        expireIdleTransfers()
    }

    /// Waits for socket activity, a wake-up, libcurl's next timer, or the next idle deadline.
    private func poll() {
        guard let multi else { return }
        var timeout = 1000
        if let deadline = nextIdleDeadline() {
            let left = ContinuousClock.now.duration(to: deadline)
            timeout = max(0, min(timeout, Int(left.inMilliseconds) + 1))
        }
        let code = curl_multi_poll(multi, nil, 0, Int32(timeout), nil)
        if code != CURLM_OK { failAll(Self.multiFailure("curl_multi_poll", code)) }
    }

    private func nextIdleDeadline() -> ContinuousClock.Instant? {
        active.values.lazy.map { $0.lastProgress + $0.idleTimeout }.min()
    }

    /// Fails the transfers that saw no byte move for their whole idle timeout.
    private func expireIdleTransfers() {
        let now = ContinuousClock.now
        for transfer in active.values where transfer.lastProgress + transfer.idleTimeout <= now {
            let failure = TransportFailure(
                library: "Reference", code: 0, message: "no data for \(transfer.idleTimeout) (the request's timeoutInterval)")
            // Over HTTP/2 libcurl would only reset the stream and keep the connection for the next request, which
            // a server that stopped answering would swallow too: a retry must start on a new connection.
            try? transfer.easy.set(CURLOPT_FORBID_REUSE, 1)
            remove(transfer)?.complete(failing: .timedOut, failure)
        }
    }

    private func failAll(_ failure: TransportFailure) {
        for transfer in Array(active.values) {
            remove(transfer)?.complete(failing: .cannotLoadFromNetwork, failure)
        }
    }

    private func finishStopping() {
        for transfer in Array(active.values) {
            remove(transfer)?.completeCancelled()
        }
        let leftovers = inbox.withLock { inbox -> Inbox in
            inbox.stopped = true
            defer { inbox = Inbox(stopping: true, stopped: true) }
            return inbox
        }
        leftovers.jobs.forEach { $0() }
        leftovers.adds.forEach { $0.completeCancelled() }
        if let multi { _ = curl_multi_cleanup(multi) }  // fails only for a bad handle
    }

    private static func multiFailure(_ call: String, _ code: CURLMcode) -> TransportFailure {
        TransportFailure(
            library: "libcurl multi", code: Int(code.rawValue), message: "\(call) failed: \(String(cString: curl_multi_strerror(code)))")
    }
}

/// libcurl's process-wide initialisation, done once.
enum CurlGlobal {
    private static let initialized: CURLcode = {
        // Anything that writes to sockets must not be killed by a peer that went away.
        signal(SIGPIPE, SIG_IGN)
        return curl_global_init(Int(CURL_GLOBAL_ALL))
    }()

    static func ensureInitialized() { _ = initialized }

    /// Why HTTPS cannot be verified with this libcurl, or `nil`: trust is decided in OpenSSL callbacks, which
    /// a libcurl built on another TLS library never calls.
    static let unsupportedTLSBackend: String? = {
        guard initialized == CURLE_OK else { return "curl_global_init failed with code \(initialized.rawValue)" }
        // CURLVERSION_NOW is a #define alias Swift cannot see.
        guard let info = curl_version_info(CURLVERSION_ELEVENTH), let version = info.pointee.ssl_version else {
            return "libcurl has no TLS support"
        }
        let name = String(cString: version)
        return name.hasPrefix("OpenSSL") ? nil : "libcurl uses \(name), not OpenSSL: HTTPS cannot be verified, so it is refused"
    }()
}
