/// Decides whether a server may be trusted, and which identity the client presents when a server asks for one,
/// inside the TLS handshake, before any request byte is sent.
///
/// `Network/URLSessionNetworkStack` asks its handler about the server on every new connection (with the chain
/// the verifier built) and again before every request on a reused connection, so a refusal holds on new,
/// reused and resumed connections alike. When a trusted server asks for a client certificate, it asks the
/// handler which identity to present, the same way.
///
/// - Warning: Both methods run on the stack's transport thread, in the middle of a handshake: they must be
///   fast and must not block or call back into the stack.
public protocol AuthenticationChallengeHandler: Sendable {

    /// Decides about one server.
    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition

    /// Chooses the identity to present to a server that asked for a client certificate. The default presents
    /// none (``ClientCertificateChallenge/Disposition/performDefaultHandling``).
    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition
}

extension AuthenticationChallengeHandler {

    /// Presents no client certificate: a handler that only judges servers keeps working unchanged.
    public func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        .performDefaultHandling
    }
}
