import Foundation

extension MockServer.TLS {
    /// What the server does with TLS sessions once ``MockServer/TLS/sessionResumption`` is on: how many tickets it
    /// sends, for how long, sealed with which keys, and whether it accepts a session a client offers.
    ///
    /// ```swift
    /// var tls = MockServer.TLS(identity: identity, sessionResumption: true)
    /// tls.resumption = .init(ticketsPerConnection: 1_000)  // a ticket flood
    /// ```
    public struct SessionResumption: Sendable, Hashable {
        /// Whether a session the client offers is resumed. `false`: every offer is turned down (a full handshake)
        /// while tickets are still sent, as a server whose ticket keys rotated on every connection would.
        public var acceptsOffers: Bool
        /// How many TLS 1.3 tickets the server sends after each handshake (OpenSSL's default is 2); at most 10 000.
        /// TLS 1.2 sends one ticket per full handshake whatever this says.
        public var ticketsPerConnection: Int
        /// The lifetime the server gives its sessions, in seconds, at least 1: the ticket's `ticket_lifetime` (TLS 1.3)
        /// or lifetime hint (TLS 1.2), and how long the server itself accepts them. `nil` keeps OpenSSL's 7 200 s (a
        /// lifetime of 0 cannot be scripted: OpenSSL reads it as its default).
        public var ticketLifetime: UInt32?
        /// The keys tickets are sealed with. Servers given the same keys accept each other's tickets, whatever
        /// certificates they serve; `nil` (the default): keys of this server's own, drawn at random.
        public var ticketKeys: TicketKeys?

        /// Creates a resumption script.
        ///
        /// - Parameters:
        ///   - acceptsOffers: Whether offered sessions are resumed (default `true`).
        ///   - ticketsPerConnection: TLS 1.3 tickets per handshake (default 2, at most 10 000).
        ///   - ticketLifetime: Seconds a session lives; `nil` keeps OpenSSL's default.
        ///   - ticketKeys: Keys shared with other servers; `nil`: the server's own.
        public init(acceptsOffers: Bool = true, ticketsPerConnection: Int = 2, ticketLifetime: UInt32? = nil, ticketKeys: TicketKeys? = nil)
        {
            self.acceptsOffers = acceptsOffers
            self.ticketsPerConnection = ticketsPerConnection
            self.ticketLifetime = ticketLifetime
            self.ticketKeys = ticketKeys
        }
    }

    /// The 80 bytes of key material OpenSSL seals session tickets with (a 16-byte key name, a 32-byte HMAC key and
    /// a 32-byte AES key): give two servers the same keys and a ticket one sent resumes on the other.
    public struct TicketKeys: Sendable, Hashable {
        /// The key material.
        public let bytes: [UInt8]

        /// Fresh keys, drawn from the system's random source.
        public static func random() -> TicketKeys {
            var generator = SystemRandomNumberGenerator()
            return TicketKeys(checked: (0..<80).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
        }

        /// Keys from 80 bytes of key material.
        ///
        /// - Throws: ``MockServerError`` with ``MockServerError/Code/tlsSetupFailed`` when `bytes` is not 80 bytes long.
        public init(bytes: [UInt8]) throws {
            guard bytes.count == 80 else {
                throw MockServerError(code: .tlsSetupFailed, message: "ticket keys are 80 bytes, not \(bytes.count)")
            }
            self.bytes = bytes
        }

        private init(checked bytes: [UInt8]) { self.bytes = bytes }
    }
}
