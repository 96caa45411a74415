import Foundation
import NetworkCore
import Pinning

extension HandlerSpec {

    /// A `ServerTrustEvaluator` whose policies the factory builds from the fixture catalogue's pins.
    package static func evaluator(
        _ name: String, allowNotPinnedDomains: Bool = false, allowExpiredDomainPolicies: Bool = true,
        order: ServerTrustEvaluator.CertificateCheckingOrder = .leafToRoot,
        _ policies: @escaping @Sendable (FixtureCatalogue) throws -> [ServerTrustEvaluator.PinningPolicy]
    ) -> HandlerSpec {
        var traits: [String] = []
        if allowNotPinnedDomains { traits.append("allowNotPinned") }
        if !allowExpiredDomainPolicies { traits.append("refuseExpired") }
        let suffix = traits.isEmpty ? "" : "; " + traits.joined(separator: ", ")
        return HandlerSpec(name: "ServerTrustEvaluator(\(name)\(suffix))") { fixtures in
            try ServerTrustEvaluator(
                configuration: ServerTrustEvaluator.Configuration(
                    pinningPolicies: policies(fixtures), certificateCheckingOrder: order,
                    allowNotPinnedDomains: allowNotPinnedDomains, allowExpiredDomainPolicies: allowExpiredDomainPolicies))
        }
    }

    /// A `TrustManager` holding the policies the factory makes with it.
    package static func trustManager(
        _ name: String, _ policies: @escaping @Sendable (TrustManager, FixtureCatalogue) throws -> [TrustPolicy]
    ) -> HandlerSpec {
        HandlerSpec(name: "TrustManager(\(name))") { fixtures in
            let manager = TrustManager()
            manager.add(policies: try policies(manager, fixtures))
            return manager
        }
    }

    /// A `TrustManager` holding the policies the factory makes, and a change that
    /// ``CaseAction/fetchReconfigureFetch`` applies to it between its two fetches.
    package static func reconfiguredTrustManager(
        _ name: String, _ policies: @escaping @Sendable (TrustManager, FixtureCatalogue) throws -> [TrustPolicy],
        then change: @escaping @Sendable (TrustManager, FixtureCatalogue) -> Void
    ) -> HandlerSpec {
        HandlerSpec(name: "TrustManager(\(name))") { fixtures in
            let manager = TrustManager()
            manager.add(policies: try policies(manager, fixtures))
            return ReconfigurableChallengeHandler(wrapped: manager) { change(manager, fixtures) }
        }
    }
}

extension TrustManager {

    /// A pinning policy for `localhost` (or `host`) pinning copies of these fixture files, with settings.
    package func pinning(
        _ type: ValidationType, _ files: [String], fixtures: FixtureCatalogue, host: String = "localhost",
        validateHostName: Bool = true, pinOnly: Bool = false
    ) throws -> TrustPolicy {
        try PinDirectory.with(files, from: fixtures) { directory in
            let settings = ValidationSettings.defaultSettings
            settings.certificateDirectory = directory
            settings.sslValidateHostName = validateHostName
            settings.certificatePinOnly = pinOnly
            return create(type: type, hostName: host, settings: settings)  // reads the directory now
        }
    }
}
