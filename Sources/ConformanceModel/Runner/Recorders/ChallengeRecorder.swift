import NetworkCore

/// The server-trust challenges the case's handler was asked, in order.
final class ChallengeRecorder: Sendable {
    private let recorded = Locked([ServerTrustChallenge]())

    func record(_ challenge: ServerTrustChallenge) {
        recorded.withLock { $0.append(challenge) }
    }

    var challenges: [ServerTrustChallenge] { recorded.withLock { $0 } }
}
