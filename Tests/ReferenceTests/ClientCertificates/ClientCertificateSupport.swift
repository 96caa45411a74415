import Foundation
import MockServer
import NetworkCore
import Reference

/// Client identities from the fixture catalogue's client scenarios.
enum ClientIdentities {
    /// A scenario's identity, loaded without the date check so expired ones load too.
    static func identity(_ scenario: String) -> ClientIdentity {
        try! ClientIdentity(
            pemCertificateFile: Fixtures.path("\(scenario)/served.pem"), privateKeyFile: Fixtures.path("\(scenario)/leaf.key"),
            validAt: nil)
    }
}

/// A handler that answers client-certificate challenges as told, records them, and leaves servers to standard
/// validation (or to `serverTrust`).
final class ClientChallengeRecorder: AuthenticationChallengeHandler {
    private let answer: Locked<ClientCertificateChallenge.Disposition>
    private let seen = Locked<[ClientCertificateChallenge]>([])
    private let serverTrust: ServerTrustChallenge.Disposition

    init(_ answer: ClientCertificateChallenge.Disposition, serverTrust: ServerTrustChallenge.Disposition = .performDefaultHandling) {
        self.answer = Locked(answer)
        self.serverTrust = serverTrust
    }

    func set(_ disposition: ClientCertificateChallenge.Disposition) { answer.withLock { $0 = disposition } }
    var challenges: [ClientCertificateChallenge] { seen.withLock { $0 } }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { serverTrust }

    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        seen.withLock { $0.append(challenge) }
        return answer.withLock { $0 }
    }
}

extension Harness {
    /// A server for `valid-ec256` that asks for a client certificate verified against root A, at most at `version`
    /// (and at least at `minimumVersion`: TLS 1.3 for post-handshake authentication).
    init(
        asking mode: (String) -> MockServer.TLS.ClientAuthentication, version: MockServer.TLS.Version = .tls13,
        handler: (any AuthenticationChallengeHandler)?, httpVersions: MockServer.TLS.HTTPVersions = .http1Only,
        minimumVersion: MockServer.TLS.Version = .tls12,
        configure: (inout Network.URLSessionNetworkStack.Configuration) -> Void = { _ in }
    ) throws {
        try self.init(
            handler: handler, httpVersions: httpVersions, configure: configure,
            tls: { tls in
                tls.minimumVersion = minimumVersion
                tls.maximumVersion = version
                tls.clientAuthentication = mode(Fixtures.path("roots/root-a.pem"))
            })
    }
}
