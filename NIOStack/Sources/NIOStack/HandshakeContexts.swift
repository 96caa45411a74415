import NIOCore
import NIOSSL
import NetworkCore

/// The NIOSSL contexts new connections handshake with, each lent to one handshake at a time.
///
/// A server's request for a client certificate reaches NIOSSL's context callback (BoringSSL's certificate callback),
/// which says nothing of the connection it comes from: each context is therefore lent to one handshake, and its
/// callback asks that handshake's ``HandshakeTrust``. Once the handshake ended the context is lent again: no callback
/// fires after a handshake (NIOSSL refuses renegotiation, and BoringSSL has no post-handshake authentication), so a
/// stack makes as many contexts as it ran handshakes at once, not one per connection.
final class HandshakeContexts: Sendable {

    /// A context lent to one handshake, until ``giveBack()``.
    final class Lease: Sendable {
        let context: NIOSSLContext
        fileprivate let slot: Slot
        private let owner: HandshakeContexts
        private let isGivenBack = Locked(false)

        fileprivate init(slot: Slot, owner: HandshakeContexts) {
            context = slot.context
            self.slot = slot
            self.owner = owner
        }

        /// Ends the lease once its handshake ended (succeeded, failed, or never started); later calls do nothing.
        func giveBack() {
            let isFirst = isGivenBack.withLock { given -> Bool in
                defer { given = true }
                return !given
            }
            guard isFirst else { return }
            slot.handshake.withLock { $0 = nil }
            owner.keep(slot)
        }
    }

    /// One context, and the handshake it is lent to.
    fileprivate final class Slot: Sendable {
        let context: NIOSSLContext
        let handshake: Locked<HandshakeTrust?>

        init(context: NIOSSLContext, handshake: Locked<HandshakeTrust?>) {
            self.context = context
            self.handshake = handshake
        }
    }

    /// Contexts kept for later handshakes; more are let go.
    private static let maximumIdle = 16

    private let configuration: TLSConfiguration
    private let idle = Locked<[Slot]>([])

    /// Contexts made from `configuration`, whose context callback is this type's.
    init(configuration: TLSConfiguration) {
        self.configuration = configuration
    }

    /// A context for `handshake`: an idle one, or a new one. Throws what NIOSSL says of a configuration it refuses.
    func lend(to handshake: HandshakeTrust) throws -> Lease {
        let slot = try idle.withLock { $0.popLast() } ?? makeSlot()
        slot.handshake.withLock { $0 = handshake }
        return Lease(slot: slot, owner: self)
    }

    private func makeSlot() throws -> Slot {
        let handshake = Locked<HandshakeTrust?>(nil)
        var configuration = configuration
        configuration.sslContextCallback = { _, promise in
            // A context no handshake holds answers nothing: the handshake fails rather than guess who is asking.
            guard let lent = handshake.withLock({ $0 }) else { return promise.fail(NotLent()) }
            lent.answerClientCertificateRequest(promise)
        }
        return Slot(context: try NIOSSLContext(configuration: configuration), handshake: handshake)
    }

    private func keep(_ slot: Slot) {
        idle.withLock { idle in
            if idle.count < Self.maximumIdle { idle.append(slot) }
        }
    }

    /// A certificate request reached a context that was lent to no handshake.
    struct NotLent: Error {}
}
