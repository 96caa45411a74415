import NetworkCore

/// The server-trust challenges the case's handler was asked, in order.
final class ChallengeRecorder: Sendable {
    private let recorded = Locked([ServerTrustChallenge]())
    private let recordedClient = Locked([ClientCertificateChallenge]())

    func record(_ challenge: ServerTrustChallenge) {
        recorded.withLock { $0.append(challenge) }
    }

    func record(_ challenge: ClientCertificateChallenge) {
        recordedClient.withLock { $0.append(challenge) }
    }

    var challenges: [ServerTrustChallenge] { recorded.withLock { $0 } }
    var clientCertificateChallenges: [ClientCertificateChallenge] { recordedClient.withLock { $0 } }
}
