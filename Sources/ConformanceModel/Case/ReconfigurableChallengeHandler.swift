import NetworkCore

/// A challenge handler whose configuration a case changes between two fetches
/// (``CaseAction/fetchReconfigureFetch``): the wrapped handler decides, `reconfigure` changes it.
package struct ReconfigurableChallengeHandler: AuthenticationChallengeHandler {

    /// The handler that decides.
    package let wrapped: any AuthenticationChallengeHandler

    /// Changes the wrapped handler's configuration (for example removes a `TrustManager` policy).
    package let reconfigure: @Sendable () -> Void

    /// Creates a handler.
    package init(wrapped: any AuthenticationChallengeHandler, reconfigure: @escaping @Sendable () -> Void) {
        self.wrapped = wrapped
        self.reconfigure = reconfigure
    }

    package func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        wrapped.handle(challenge)
    }

    package func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        wrapped.handle(challenge)
    }
}
