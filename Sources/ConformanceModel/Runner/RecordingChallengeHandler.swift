import NetworkCore

/// Wraps a case's handler to record each challenge for the checks, then lets the handler decide.
struct RecordingChallengeHandler: AuthenticationChallengeHandler {
    let wrapped: any AuthenticationChallengeHandler
    let challenges: ChallengeRecorder

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        challenges.record(challenge)
        return wrapped.handle(challenge)
    }

    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        challenges.record(challenge)
        return wrapped.handle(challenge)
    }
}
