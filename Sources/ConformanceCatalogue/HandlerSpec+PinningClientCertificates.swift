import ConformanceModel
import NetworkCore
import Pinning

extension HandlerSpec {
    /// Pins the server to a key of no certificate, and presents a client scenario's identity to any server it trusts.
    package static func pinningUnknownKeyPresenting(_ scenario: String) -> HandlerSpec {
        HandlerSpec(name: "pin an unknown key, presenting(\(scenario))", readsVerifiedChain: true, answersClientCertificates: true) {
            fixtures in
            let evaluator = try ServerTrustEvaluator(
                configuration: ServerTrustEvaluator.Configuration(
                    pinningPolicies: [try Catalogue.policy("localhost", [Catalogue.unknownPin])]))
            return ClientCertificateHandler(presenting: try fixtures.clientIdentity(scenario), serverTrust: evaluator)
        }
    }
}
