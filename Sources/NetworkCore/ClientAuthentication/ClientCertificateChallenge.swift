import Foundation

/// What a TLS client knows when a server asks it for a certificate (TLS client authentication).
///
/// It comes once per new connection whose server asks, after the server itself was trusted
/// (``ServerTrustChallenge``): no identity is ever offered to a server the client refused. Before each later
/// request on that connection it comes again with ``isReusedConnection`` set, so that a request whose handler
/// now chooses another identity goes on a new connection rather than on one that presented the old one.
public struct ClientCertificateChallenge: Sendable {

    /// How a handler answers a client-certificate challenge.
    public enum Disposition: Sendable, Equatable {
        /// Present this identity.
        case useCredential(ClientIdentity)
        /// Go on without presenting a certificate; a server that requires one refuses the connection, and the
        /// fetch fails with `URLError.clientCertificateRequired`.
        case performDefaultHandling
        /// Give up on the connection before anything more is sent: the fetch fails with
        /// `URLError.clientCertificateRequired`, the transport failure saying the handler cancelled.
        case cancelAuthenticationChallenge
    }

    /// The host the client connects to, from the request URL (lowercased, IPv6 without brackets).
    public let host: String

    /// The port the client connects to.
    public let port: Int

    /// The distinguished names of the certificate authorities the server said it accepts, one line each
    /// (`CN=…,O=…` in RFC 2253 form); empty when the server named none.
    public let acceptableIssuers: [String]

    /// Whether this is the check before a request on a connection whose handshake already answered, or before a TLS
    /// session made presenting an identity is resumed (it is resumed only if the answer is the same).
    public let isReusedConnection: Bool

    /// Creates a challenge.
    public init(host: String, port: Int, acceptableIssuers: [String], isReusedConnection: Bool) {
        self.host = host
        self.port = port
        self.acceptableIssuers = acceptableIssuers
        self.isReusedConnection = isReusedConnection
    }
}
