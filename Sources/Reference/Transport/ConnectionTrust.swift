internal import COpenSSL
import Foundation

/// What one connection's verification needs, and what its handshake established; lives exactly as long as
/// the connection's `SSL_CTX`, and is touched only on the transport thread.
final class ConnectionTrust {
    let host: String
    let port: Int
    let context: TLSTrustContext
    /// The transfer whose handshake made the connection.
    weak var transfer: CurlTransfer?
    /// The transfer whose request is on the connection now, which a refusal of the client certificate fails.
    weak var currentTransfer: CurlTransfer?
    /// The handshake's evidence, kept for the re-check before each later request: OpenSSL's own record of it
    /// cannot be trusted then (the verify result is overwritten when a handler accepts, and the chain it keeps
    /// may be a partial, unverified one).
    var evidence: TrustVerdict.Evidence?
    /// What the client answered when the server asked it for a certificate; `nil` while it has not asked.
    var clientCertificate: ClientCertificateExchange?
    /// The connection's socket, when the stack could tell which it is (libcurl's OpenSSL layer keeps it to itself).
    let socket: ConnectedSocket?

    /// Whether the server was trusted: its handshake's verdict, or the judgement of its resumed session, accepted it.
    /// Only then are the sessions the server issues on the connection kept.
    var isTrusted = false
    /// When the verdict of the connection's standard validation holds (``KeptTrust/replayablePeriod``).
    var replayablePeriod: ClosedRange<Date>?
    /// Whether the leaf demands a stapled OCSP response.
    var leafDemandsStaple = false
    /// The session offered in the ClientHello, whose kept trust judges the connection if the server resumed it.
    var offered: TLSSessionCache.Session?
    /// Whether the server resumed the session offered (known once the handshake is done).
    var resumed = false
    /// Whether the connection speaks TLS 1.3 (known once the handshake is done), whose servers issue a new ticket on
    /// every resumption.
    var speaksTLS13 = false
    /// Set when a resumed session could not be judged and the transfer started over: the connection carries no request.
    var isRetired = false

    init(host: String, port: Int, context: TLSTrustContext, transfer: CurlTransfer, socket: ConnectedSocket?) {
        self.host = host
        self.port = port
        self.context = context
        self.transfer = transfer
        self.currentTransfer = transfer
        self.socket = socket
    }

    /// Whether the server has closed the connection (its FIN arrived), so that no request may go on it; `false` when
    /// the socket is unknown.
    var serverHasClosed: Bool { socket?.peerHasClosed ?? false }

    /// The key the connection's sessions are kept under.
    var sessionKey: TLSSessionCache.Key { TLSSessionCache.Key(host: host, port: port) }

    /// What a resumption of a session issued on this connection needs to be judged; `nil` unless the server was trusted.
    var keptTrust: KeptTrust? {
        guard isTrusted, let evidence else { return nil }
        return KeptTrust(
            evidence: evidence, replayablePeriod: replayablePeriod, clientCertificate: clientCertificate,
            leafDemandsStaple: leafDemandsStaple)
    }

    /// Takes over what a resumed session's full handshake established, as if this connection's own handshake had
    /// (the inverse of ``keptTrust``): later re-checks, and the sessions the server issues next, rest on it.
    func adopt(_ kept: KeptTrust, trusted: Bool) {
        evidence = kept.evidence
        clientCertificate = kept.clientCertificate
        replayablePeriod = kept.replayablePeriod
        leafDemandsStaple = kept.leafDemandsStaple
        isTrusted = trusted
    }

    /// The trust record of the connection an `SSL` object belongs to.
    static func of(_ ssl: OpaquePointer?) -> ConnectionTrust? {
        guard let ssl, let pointer = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(ssl), connectionTrustIndex) else { return nil }
        return Unmanaged<ConnectionTrust>.fromOpaque(pointer).takeUnretainedValue()
    }
}
