internal import COpenSSL
import Foundation
import NetworkCore

/// The TLS sessions one stack may resume, each with the trust its full handshake established (``KeptTrust``).
///
/// One cache per stack, never shared: every setting that decides trust (roots, profile, revocation policy, verification
/// time, handler) is the stack's, so a session is only ever offered under the configuration that judged it. The key is
/// what was asked (host as the URL spells it, port); the stack offers one ALPN list and sends the host as SNI. Bounded:
/// at most ``maximumSessions`` keys, one session each (the newest), and a session whose ticket is over
/// ``maximumTicketBytes`` is not kept, so neither a fan-out to many hosts nor a server sending hundreds of tickets
/// grows it. A session is taken out when offered: a TLS 1.3 ticket is used once (RFC 8446 C.4), and the connection
/// that resumes brings the next one.
final class TLSSessionCache: Sendable {

    /// What a session is kept under.
    struct Key: Hashable, Sendable {
        let host: String
        let port: Int
    }

    /// A session the cache holds one reference of, with the trust judged when it was made.
    final class Session: @unchecked Sendable {  // the pointer only goes to OpenSSL, which counts its references
        let pointer: OpaquePointer
        let kept: KeptTrust

        /// Takes over one reference of `pointer`.
        init(taking pointer: OpaquePointer, kept: KeptTrust) {
            self.pointer = pointer
            self.kept = kept
        }

        /// Set when the reference goes back to whoever gave it (a session the cache did not keep).
        private var released = false

        deinit { if !released { SSL_SESSION_free(pointer) } }

        /// Gives the reference back instead of freeing it.
        fileprivate func release() { released = true }

        /// Whether the server's lifetime for the session has passed (OpenSSL's clock, seconds since 1970).
        func hasExpired(now: Int) -> Bool {
            SSL_SESSION_get_time(pointer) + SSL_SESSION_get_timeout(pointer) <= now
        }
    }

    static let maximumSessions = 64
    static let maximumTicketBytes = 16 * 1024

    private struct State {
        var sessions: [Key: Session] = [:]
        /// Keys from the least to the most recently kept.
        var order: [Key] = []
    }

    private let state = Locked(State())

    /// Keeps a session under a key, replacing the key's older one (or, when `unlessNewer`, only if the key has none),
    /// and takes over one reference of it; `false` when it is not kept (not resumable, its ticket too large, a newer
    /// one there), the reference staying the caller's.
    func keep(_ pointer: OpaquePointer, for key: Key, kept: KeptTrust, unlessNewer: Bool = false) -> Bool {
        guard SSL_SESSION_is_resumable(pointer) == 1, Self.ticketLength(pointer) <= Self.maximumTicketBytes else { return false }
        let session = Session(taking: pointer, kept: kept)
        let (inserted, released) = state.withLock { state -> (Bool, Session?) in
            if unlessNewer, state.sessions[key] != nil { return (false, nil) }
            return (true, Self.insert(session, for: key, in: &state))
        }
        _ = released  // released outside the lock
        if !inserted { session.release() }
        return inserted
    }

    /// Takes a key's session out to offer it on one connection; `nil` when there is none or it expired.
    func take(_ key: Key, now: Int) -> Session? {
        state.withLock { state -> Session? in
            guard let session = state.sessions.removeValue(forKey: key) else { return nil }
            state.order.removeAll { $0 == key }
            return session.hasExpired(now: now) ? nil : session
        }
    }

    /// How many sessions are kept.
    var count: Int { state.withLock { $0.sessions.count } }

    /// Inserts a session; returns what it displaced (the key's older session, or the least recent key's), to be
    /// released once the lock is let go.
    private static func insert(_ session: Session, for key: Key, in state: inout State) -> Session? {
        if let older = state.sessions.updateValue(session, forKey: key) {
            state.order.removeAll { $0 == key }
            state.order.append(key)
            return older
        }
        state.order.append(key)
        guard state.order.count > maximumSessions else { return nil }
        return state.sessions.removeValue(forKey: state.order.removeFirst())
    }

    private static func ticketLength(_ pointer: OpaquePointer) -> Int {
        var ticket: UnsafePointer<UInt8>?
        var length = 0
        SSL_SESSION_get0_ticket(pointer, &ticket, &length)
        return length
    }
}
