import Foundation

extension ConformanceCase {

    /// The features a case needs because of what it does, so that no case has to remember them: a subject
    /// with a weaker TLS hook then gets SKIP with its reason where the case would otherwise FAIL for a
    /// capability the subject never claimed.
    ///
    /// `refusedScenarios` are the fixture scenarios standard validation refuses; by default they are read from the
    /// manifest when the case is made, for `--list` and the reports, and the runner derives the features again
    /// from the catalogue it runs with, so that a manifest not found at that first read can never turn a SKIP
    /// into a FAIL.
    static func derivedFeatures(
        server: ServerScript, stack: StackSetup, action: CaseAction, expected: Expectation,
        refusedScenarios: Set<String> = ScenarioValidity.refused
    ) -> Set<SubjectFeature> {
        var features: Set<SubjectFeature> = []
        if let code = expected.outcome.urlErrorCode, dateCodes.contains(code) { features.insert(.certificateDateCodes) }
        // A server can ask after the handshake only a client that offered post-handshake authentication.
        if server.clientCertificates == .postHandshake { features.formUnion([.clientCertificates, .postHandshakeClientCertificates]) }
        // A case about a configuration that must not be made checks the project's handler before any stack
        // exists: the handler never reaches the subject, so none of its hooks is needed, and every subject runs it.
        guard let handler = stack.handler, expected.outcome.kind != .configurationError else { return features }
        if handler.answersClientCertificates { features.insert(.clientCertificates) }
        guard handler.judgesServers else { return features }
        features.insert(.serverTrustChallenge)
        if expected.journal.noApplicationBytes == true || (server.tlsScenario != nil && expected.journal.requests == 0) {
            features.insert(.challengeBeforeRequest)
        }
        if action == .fetchReconfigureFetch || expected.checks.contains(.laterChallengesAreReused) {
            features.insert(.reusedConnectionRecheck)
        }
        if handler.readsVerifiedChain || expected.checks.contains(where: \.readsVerifiedChain) {
            features.insert(.challengeCarriesChains)
        }
        // A handler that lets a fetch succeed on a chain standard validation refuses has overruled it.
        if let scenario = server.tlsScenario, refusedScenarios.contains(scenario),
            expected.outcome.kind == .success || action == .fetchReconfigureFetch
        {
            features.insert(.challengeOverridesValidation)
        }
        return features
    }

    /// `serverCertificateHasBadDate` and `serverCertificateNotYetValid`.
    static let dateCodes: Set<Int> = [
        URLError.Code.serverCertificateHasBadDate.rawValue, URLError.Code.serverCertificateNotYetValid.rawValue,
    ]
}

extension Check {
    /// Whether the check reads the verified chain or standard validation's verdict from a challenge.
    var readsVerifiedChain: Bool {
        switch self {
        case .challenge(_, _, let verified): verified != nil
        case .challengeStandardValidation, .lastChallengeStandardValidation, .challengesCarryTheFirstEvidence: true
        default: false
        }
    }
}

/// The fixture scenarios whose chain standard validation refuses.
enum ScenarioValidity {
    /// Read once from the manifest where `FixtureCatalogue.locate()` finds it; empty when it finds none.
    static let refused: Set<String> = (try? FixtureCatalogue.locate()).map(refused(in:)) ?? []

    static func refused(in fixtures: FixtureCatalogue) -> Set<String> {
        Set(fixtures.scenarios.filter { $0.kind == "chain" && $0.expected != "valid" }.map(\.name))
    }
}

extension ConformanceCase {
    /// The features the case needs, derived again from the fixture catalogue the runner holds.
    func requiredFeatures(with fixtures: FixtureCatalogue) -> Set<SubjectFeature> {
        requires.union(
            Self.derivedFeatures(
                server: server, stack: stack, action: action, expected: expected,
                refusedScenarios: ScenarioValidity.refused(in: fixtures)))
    }
}
