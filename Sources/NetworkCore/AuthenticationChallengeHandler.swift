/// Decides whether a server may be trusted, inside the TLS handshake, before any request byte is sent.
///
/// ``Network/URLSessionNetworkStack`` asks its handler on every new connection (with the chain the
/// verifier built) and again before every request on a reused connection, so a refusal holds on new,
/// reused and resumed connections alike.
///
/// - Warning: `handle(_:)` runs on the stack's transport thread, in the middle of a handshake: it must be
///   fast and must not block or call back into the stack.
public protocol AuthenticationChallengeHandler: Sendable {

    /// Decides about one server.
    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition
}
