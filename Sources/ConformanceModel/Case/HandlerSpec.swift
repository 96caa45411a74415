import Foundation
import NetworkCore

/// The ``AuthenticationChallengeHandler`` a case gives the stack, as a named factory, so that handlers
/// with configuration (pinning policies built from the fixture manifest) are data in the catalogue too.
///
/// The runner wraps the handler it makes so that every challenge is recorded for the case's checks.
package struct HandlerSpec: Sendable, CustomStringConvertible {

    /// A name for reports (`scripted(useCredential)`, `ServerTrustEvaluator(pin leaf)`).
    package let name: String

    /// Makes the handler; gets the fixture catalogue (pins, files) and may throw (an ERROR verdict).
    package let make: @Sendable (FixtureCatalogue) throws -> any AuthenticationChallengeHandler

    /// Whether the handler reads the challenge's verified chain or standard validation's verdict (pinning
    /// handlers, a handler that trusts only valid chains): it then needs ``SubjectFeature/challengeCarriesChains``.
    package let readsVerifiedChain: Bool

    /// Whether the handler decides about servers; `false` for one that only answers client-certificate challenges
    /// and leaves servers to standard validation, which needs no ``SubjectFeature/serverTrustChallenge``.
    package let judgesServers: Bool

    /// Whether the handler answers client-certificate challenges: it then needs ``SubjectFeature/clientCertificates``.
    package let answersClientCertificates: Bool

    /// Creates a spec from a factory.
    package init(
        name: String, readsVerifiedChain: Bool = true, judgesServers: Bool = true, answersClientCertificates: Bool = false,
        make: @escaping @Sendable (FixtureCatalogue) throws -> any AuthenticationChallengeHandler
    ) {
        self.name = name
        self.readsVerifiedChain = readsVerifiedChain
        self.judgesServers = judgesServers
        self.answersClientCertificates = answersClientCertificates
        self.make = make
    }

    package var description: String { name }

    /// A handler that always answers `disposition`.
    package static func scripted(_ disposition: ScriptedDisposition) -> HandlerSpec {
        HandlerSpec(name: "scripted(\(disposition.rawValue))", readsVerifiedChain: disposition == .refuseUnlessValid) { _ in
            ScriptedChallengeHandler(disposition)
        }
    }

    /// The answers of ``scripted(_:)``.
    package enum ScriptedDisposition: String, Sendable {
        /// Trust the server whatever standard validation said.
        case useCredential
        /// Let standard validation decide.
        case performDefaultHandling
        /// Refuse the server with ``ServerTrustFailure/Reason/refused``.
        case refuse
        /// Trust only when standard validation passed, refusing otherwise with the chain failure as reason.
        case refuseUnlessValid
    }
}

/// A test handler with a fixed answer, for cases about how a stack applies a disposition, whatever decides it.
struct ScriptedChallengeHandler: AuthenticationChallengeHandler {
    let disposition: HandlerSpec.ScriptedDisposition

    init(_ disposition: HandlerSpec.ScriptedDisposition) { self.disposition = disposition }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        switch disposition {
        case .useCredential: return .useCredential
        case .performDefaultHandling: return .performDefaultHandling
        case .refuse:
            return .cancelAuthenticationChallenge(
                ServerTrustFailure(reason: .refused, host: challenge.host, detail: "conformance test handler"))
        case .refuseUnlessValid:
            switch challenge.standardValidation {
            case .success: return .useCredential
            case .failure(let failure):
                return .cancelAuthenticationChallenge(ServerTrustFailure(reason: .chainNotTrusted(failure), host: challenge.host))
            }
        }
    }
}
