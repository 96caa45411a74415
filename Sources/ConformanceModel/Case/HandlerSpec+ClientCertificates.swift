import Foundation
import NetworkCore
import Pinning

extension HandlerSpec {

    /// Presents the identity of a client scenario of the fixture catalogue to every server that asks (loaded
    /// without its date check, so that expired ones can be presented); servers are left to standard validation.
    package static func presenting(_ scenario: String) -> HandlerSpec {
        HandlerSpec(name: "presenting(\(scenario))", readsVerifiedChain: false, judgesServers: false, answersClientCertificates: true) {
            ClientCertificateHandler(presenting: try $0.clientIdentity(scenario))
        }
    }

    /// Cancels every client-certificate challenge; servers are left to standard validation.
    package static let cancellingClientCertificate = HandlerSpec(
        name: "cancelling client certificates", readsVerifiedChain: false, judgesServers: false, answersClientCertificates: true
    ) { _ in CancellingClientCertificates() }

    /// Presents a client scenario's identity until ``CaseAction/fetchReconfigureFetch`` reconfigures it, then none.
    package static func presentingUntilReconfigured(_ scenario: String) -> HandlerSpec {
        HandlerSpec(
            name: "presenting(\(scenario)), then none", readsVerifiedChain: false, judgesServers: false, answersClientCertificates: true
        ) { fixtures in
            let handler = SwitchableClientIdentity(try fixtures.clientIdentity(scenario))
            return ReconfigurableChallengeHandler(wrapped: handler) { handler.present(nil) }
        }
    }

    /// Presents no identity until ``CaseAction/fetchReconfigureFetch`` reconfigures it, then a client scenario's.
    package static func presentingOnceReconfigured(_ scenario: String) -> HandlerSpec {
        HandlerSpec(
            name: "presenting none, then \(scenario)", readsVerifiedChain: false, judgesServers: false, answersClientCertificates: true
        ) { fixtures in
            let identity = try fixtures.clientIdentity(scenario)
            let handler = SwitchableClientIdentity(nil)
            return ReconfigurableChallengeHandler(wrapped: handler) { handler.present(identity) }
        }
    }

    /// Presents one client scenario's identity until ``CaseAction/fetchReconfigureFetch`` reconfigures it, then
    /// another's: two identities the same server accepts.
    package static func presentingThenSwitching(from first: String, to second: String) -> HandlerSpec {
        HandlerSpec(
            name: "presenting(\(first)), then \(second)", readsVerifiedChain: false, judgesServers: false, answersClientCertificates: true
        ) { fixtures in
            let next = try fixtures.clientIdentity(second)
            let handler = SwitchableClientIdentity(try fixtures.clientIdentity(first))
            return ReconfigurableChallengeHandler(wrapped: handler) { handler.present(next) }
        }
    }
}

extension FixtureCatalogue {
    /// The identity of a client scenario, its date not checked.
    package func clientIdentity(_ name: String) throws -> ClientIdentity {
        guard let scenario = scenario(name), scenario.kind == "client", let served = scenario.served, let key = scenario.key else {
            throw MissingClientScenario(name: name)
        }
        return try ClientIdentity(pemCertificateFile: path(served), privateKeyFile: path(key), validAt: nil)
    }
}

/// The fixture catalogue has no client scenario of this name.
struct MissingClientScenario: Error, CustomStringConvertible {
    let name: String
    var description: String { "the fixture catalogue has no client scenario \(name)" }
}

/// Cancels every client-certificate challenge.
struct CancellingClientCertificates: AuthenticationChallengeHandler {
    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { .performDefaultHandling }
    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition { .cancelAuthenticationChallenge }
}

/// Presents one identity (or none) until told to present another (or none).
final class SwitchableClientIdentity: AuthenticationChallengeHandler {
    private let identity: Locked<ClientIdentity?>

    init(_ identity: ClientIdentity?) { self.identity = Locked(identity) }

    func present(_ next: ClientIdentity?) { identity.withLock { $0 = next } }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition { .performDefaultHandling }

    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition {
        identity.withLock { $0 }.map { .useCredential($0) } ?? .performDefaultHandling
    }
}
