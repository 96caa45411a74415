import NetworkCore

/// A challenge handler whose configuration a case changes between two fetches
/// (``CaseAction/fetchReconfigureFetch``): the wrapped handler decides, `reconfigure` changes it.
public struct ReconfigurableChallengeHandler: AuthenticationChallengeHandler {

    /// The handler that decides.
    public let wrapped: any AuthenticationChallengeHandler

    /// Changes the wrapped handler's configuration (for example removes a `TrustManager` policy).
    public let reconfigure: @Sendable () -> Void

    /// Creates a handler.
    public init(wrapped: any AuthenticationChallengeHandler, reconfigure: @escaping @Sendable () -> Void) {
        self.wrapped = wrapped
        self.reconfigure = reconfigure
    }

    public func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        wrapped.handle(challenge)
    }
}
