import CCurl
import CShims
import Foundation
import Synchronization

/// The stack's one transport thread: owns a libcurl multi handle (and so its connection cache), adds and
/// removes transfers, and runs their completions.
///
/// Other threads talk to it only through the inbox, under a lock, then `curl_multi_wakeup`; everything
/// else is touched on the loop thread alone, which is why the class can be `@unchecked Sendable`.
final class CurlMultiLoop: @unchecked Sendable {

    private struct Inbox {
        var adds: [CurlTransfer] = []
        var cancels: [CurlTransfer] = []
        var jobs: [@Sendable () -> Void] = []
        var stopping = false
        var stopped = false
    }

    private let multi: UnsafeMutableRawPointer
    private let inbox = Mutex(Inbox())
    private var active: [UnsafeMutableRawPointer: CurlTransfer] = [:]
    private let loopThread = Mutex<pthread_t?>(nil)

    init() {
        CurlGlobal.ensureInitialized()
        multi = curl_multi_init()
        let thread = Thread { [self] in run() }
        thread.name = "Reference.CurlMultiLoop"
        thread.start()
    }

    /// Whether the caller runs on the loop thread.
    var isOnLoopThread: Bool {
        guard let owner = loopThread.withLock({ $0 }) else { return false }
        return pthread_equal(owner, pthread_self()) != 0
    }

    /// Starts a transfer; if the loop has stopped, the transfer completes as cancelled.
    func submit(_ transfer: CurlTransfer) {
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

    /// Stops the loop: transfers in flight complete as cancelled, then the thread exits and frees the
    /// multi handle. Returns at once.
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
            // stopped under the same lock.
            if !onLoopThread { curl_multi_wakeup(multi) }
            return true
        }
    }

    private func run() {
        loopThread.withLock { $0 = pthread_self() }
        var running: Int32 = 0
        while true {
            let work = inbox.withLock { inbox -> Inbox in
                defer { inbox.adds = []; inbox.cancels = []; inbox.jobs = [] }
                return inbox
            }
            work.jobs.forEach { $0() }
            for transfer in work.adds {
                if work.stopping { transfer.completeCancelled(); continue }
                guard !transfer.completeIfSetupFailed(), let easy = transfer.easy else { continue }
                active[easy] = transfer
                let code = curl_multi_add_handle(multi, easy)
                if code != CURLM_OK {
                    active[easy] = nil
                    transfer.complete(addFailure: code)
                }
            }
            for transfer in work.cancels {
                guard let easy = transfer.easy, active.removeValue(forKey: easy) != nil else { continue }
                curl_multi_remove_handle(multi, easy)
                transfer.completeCancelled()
            }
            if work.stopping {
                finishStopping()
                return
            }
            curl_multi_perform(multi, &running)
            drainCompletedTransfers()
            let hasWork = inbox.withLock { !$0.adds.isEmpty || !$0.cancels.isEmpty || !$0.jobs.isEmpty || $0.stopping }
            if !hasWork {
                curl_multi_poll(multi, nil, 0, 1000, nil)
            }
        }
    }

    private func drainCompletedTransfers() {
        var remaining: Int32 = 0
        while let message = curl_multi_info_read(multi, &remaining) {
            guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
            let code = message.pointee.data.result
            curl_multi_remove_handle(multi, easy)
            active.removeValue(forKey: easy)?.complete(code: code)
        }
    }

    private func finishStopping() {
        let transfers = active.values
        active = [:]
        for transfer in transfers {
            if let easy = transfer.easy { curl_multi_remove_handle(multi, easy) }
            transfer.completeCancelled()
        }
        let leftovers = inbox.withLock { inbox -> Inbox in
            inbox.stopped = true
            defer { inbox = Inbox(stopping: true, stopped: true) }
            return inbox
        }
        leftovers.jobs.forEach { $0() }
        leftovers.adds.forEach { $0.completeCancelled() }
        curl_multi_cleanup(multi)
    }
}

/// libcurl's process-wide initialisation, done once.
enum CurlGlobal {
    private static let initialized: Bool = {
        curl_global_init(Int(CURL_GLOBAL_ALL))
        // Anything that writes to sockets must not be killed by a peer that went away.
        signal(SIGPIPE, SIG_IGN)
        return true
    }()

    static func ensureInitialized() { _ = initialized }

    /// Why HTTPS cannot be verified with this libcurl, or `nil`: trust is decided in OpenSSL callbacks, which
    /// a libcurl built on another TLS library never calls.
    static let unsupportedTLSBackend: String? = {
        ensureInitialized()
        // CURLVERSION_NOW is a #define alias Swift cannot see.
        guard let info = curl_version_info(CURLVERSION_ELEVENTH), let version = info.pointee.ssl_version else {
            return "libcurl has no TLS support"
        }
        let name = String(cString: version)
        return name.hasPrefix("OpenSSL") ? nil : "libcurl uses \(name), not OpenSSL: HTTPS cannot be verified, so it is refused"
    }()
}
