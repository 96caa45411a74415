/// What happened on one accepted connection; ``MockServer/journal`` lists one per connection, in accept order.
public struct ConnectionRecord: Sendable {
    /// The outcome of the TLS handshake. New outcomes may be added; switch with a `default`.
    public struct Handshake: Sendable, Hashable, CustomStringConvertible {
        private enum Base: Sendable, Hashable { case notTLS, pending, succeeded, failed }
        private let base: Base
        /// Why the handshake failed: the OpenSSL reason, which names the alert the client sent
        /// (`"tlsv1 alert unknown ca"`, `"sslv3 alert handshake failure"`); `nil` unless it failed.
        public let failureReason: String?

        private init(_ base: Base, failureReason: String? = nil) {
            self.base = base
            self.failureReason = failureReason
        }

        /// A plain-HTTP server, or a fault fired before the handshake began.
        public static let notTLS = Handshake(.notTLS)
        /// The handshake has not finished yet.
        public static let pending = Handshake(.pending)
        /// The handshake completed.
        public static let succeeded = Handshake(.succeeded)
        /// The handshake failed, for `reason` (see ``failureReason``).
        public static func failed(_ reason: String) -> Handshake { Handshake(.failed, failureReason: reason) }

        /// Whether the handshake failed, whatever the reason: `record.handshake.isFailed`.
        public var isFailed: Bool { base == .failed }

        /// `notTLS`, `pending`, `succeeded`, or `failed(<reason>)`.
        public var description: String {
            switch base {
            case .notTLS: "notTLS"
            case .pending: "pending"
            case .succeeded: "succeeded"
            case .failed: "failed(\(failureReason ?? ""))"
            }
        }
    }

    /// Who closed the connection first.
    public enum Closer: Sendable, Hashable {
        /// The client closed or reset it (or the server read an error from it).
        case client
        /// The server closed it (a response with `Connection: close`, a fault, a malformed request, or shutdown).
        case server
    }

    /// How the connection ended.
    public enum CloseKind: Sendable, Hashable {
        /// An orderly close.
        case fin
        /// A TCP reset.
        case reset
    }

    /// The connection's 0-based index (accept order); matches ``RecordedRequest/connectionIndex``.
    public let index: Int
    /// The client's TCP port.
    public let peerPort: Int
    /// The SNI name the client sent, or `nil`.
    public internal(set) var sniName: String?
    /// The negotiated TLS version, or `nil`.
    public internal(set) var tlsVersion: String?
    /// The TLS handshake outcome.
    public internal(set) var handshake: Handshake
    /// Whether the client resumed a TLS session (only possible with ``MockServer/TLS/sessionResumption`` on): the server
    /// accepted the session the client offered, also when the handshake then failed (a client that refuses the server
    /// after resuming closes before the server's new tickets are written).
    public internal(set) var sessionReused: Bool = false
    /// Whether the client offered a session to resume: a TLS 1.3 `pre_shared_key`, a TLS 1.2 ticket, or the ID of a
    /// TLS 1.2 session this server issued, in its ClientHello, whether or not the server then accepted it.
    public internal(set) var sessionOffered: Bool = false
    /// The bytes of HTTP the client sent (decrypted under TLS), including unread bytes counted when read.
    public internal(set) var applicationBytesReceived: Int = 0
    /// The bytes of HTTP (decrypted under TLS) the client sent after the server closed the connection with
    /// ``MockFault/Effect/closeIdle``: a request sent into a connection the server had closed.
    public internal(set) var bytesAfterClose: Int = 0
    /// How many requests were read (complete or cut short) on this connection.
    public internal(set) var requestCount: Int = 0
    /// The fault that fired on this connection, if any. A response's ``MockResponse/Malformation`` is its shape,
    /// not something that happened to the connection: it is in ``malformation``.
    public internal(set) var fault: MockFault?
    /// The malformation of the last malformed response the server began to send on this connection, if any.
    public internal(set) var malformation: MockResponse.Malformation?
    /// The application protocol ALPN selected (`"h2"`, `"http/1.1"`), or `nil` when none was (plain HTTP, a
    /// client that offered no ALPN, a failed handshake).
    public internal(set) var applicationProtocol: String?
    /// What an HTTP/2 client said about the connection itself (its SETTINGS, the streams it reset, its GOAWAY);
    /// empty over HTTP/1.
    public internal(set) var http2 = HTTP2ClientFrames()
    /// What became of the server's request for a client certificate, or `nil` when it did not ask (or the
    /// handshake failed before it could).
    public internal(set) var clientCertificate: ClientCertificate?
    /// Who closed the connection, or `nil` while it is open.
    public internal(set) var closedBy: Closer?
    /// How it was closed, or `nil` while it is open.
    public internal(set) var closeKind: CloseKind?

    init(index: Int, peerPort: Int, tls: Bool) {
        self.index = index
        self.peerPort = peerPort
        self.handshake = tls ? .pending : .notTLS
    }
}
