internal import CCurl
internal import CShims
import NetworkCore

/// Easy handles kept for reuse between transfers of one stack: `curl_easy_reset` costs a fraction of
/// `curl_easy_init` plus `curl_easy_cleanup`, which every request otherwise pays.
///
/// A reset handle keeps nothing a transfer set (options, lists, callbacks); what libcurl keeps across a reset
/// is harmless here (connections live in the multi handle's cache, and the stack never turns on libcurl's TLS
/// session cache, cookies, HSTS or alt-svc), except the last socket error: `curl_easy_reset` leaves
/// `CURLINFO_OS_ERRNO` as it was, and the failure mapping reads it. A handle whose transfer ended on a socket error
/// is cleaned up, never kept, so the next transfer's error is its own.
final class CurlEasyPool: Sendable {
    /// Enough for the transfers a busy stack runs at once; more are cleaned up rather than kept.
    static let capacity = 64

    /// An idle handle: no transfer and no multi handle holds it, so any thread may take it.
    private struct Idle: @unchecked Sendable { let handle: UnsafeMutableRawPointer }

    private let idle = Locked<[Idle]>([])

    /// A reset handle, or a new one; `nil` only when libcurl cannot allocate one.
    func take() -> UnsafeMutableRawPointer? {
        idle.withLock { $0.popLast() }?.handle ?? curl_easy_init()
    }

    /// Takes back a handle that no multi handle holds any more: resets it for the next transfer, or cleans it up.
    func give(_ handle: UnsafeMutableRawPointer) {
        var socketError = 0
        guard cshims_easy_getinfo_long(handle, CURLINFO_OS_ERRNO, &socketError) == CURLE_OK, socketError == 0 else {
            return curl_easy_cleanup(handle)
        }
        curl_easy_reset(handle)
        let kept = idle.withLock { idle -> Bool in
            guard idle.count < Self.capacity else { return false }
            idle.append(Idle(handle: handle))
            return true
        }
        if !kept { curl_easy_cleanup(handle) }
    }

    deinit {
        idle.withLock { idle in idle.forEach { curl_easy_cleanup($0.handle) } }
    }
}
