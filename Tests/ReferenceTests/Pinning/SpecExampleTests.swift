import Foundation
import Reference
import Testing

extension PinningTests {

    @Suite("The pinning example of the network documentation")
    struct SpecExample {

        @Test("the example compiles and builds a stack as written")
        func networkDocumentationExample() throws {
            // for now, use the expiration date from the certificate itself as the policy's expiration date
            let gitHubRootExpirationDate = ISO8601DateFormatter().date(from: "2031-11-10T00:00:00Z")!

            let gitHubPolicy = try ServerTrustEvaluator.PinningPolicy(
                domainName: "github.com",
                includeSubdomains: true,
                expirationDate: gitHubRootExpirationDate,
                pinnedHashes: ["WoiWRyIOVNa9ihaBciRSC7XHjliYS9VwUGOIud4PB18="],  // DigiCertHighAssuranceEVRootCA
                enforceBackupPin: false  // we should ideally have a backup pin that's not in the chain to avoid bricking clients
            )

            let configuration = try ServerTrustEvaluator.Configuration(
                pinningPolicies: [gitHubPolicy],
                certificateCheckingOrder: .rootToLeaf,
                allowNotPinnedDomains: false,
                allowExpiredDomainPolicies: false
            )

            let serverTrustEvaluator = try ServerTrustEvaluator(configuration: configuration)

            let network = Network.URLSessionNetworkStack(
                authenticationChallengeHandler: serverTrustEvaluator,
                retryQueue: DispatchQueue(label: "com.alicerce.network.retry-queue")
            )
            #expect(network.authenticationChallengeHandler is ServerTrustEvaluator)
            #expect(configuration.policy(forHost: "api.github.com") == gitHubPolicy)
        }

        @Test("evaluate throws the typed errors of docs/pinning.md (PIN-11, PIN-12)")
        func evaluateErrors() throws {
            let leaf = Catalogue.leaf("valid-ec256")
            let evaluator = try evaluator([policy("example.test", expires: Date(timeIntervalSince1970: 1_000_000_000), pins: [leaf])])
            #expect(throws: ServerTrustEvaluator.Error.domainNotPinned) {
                try evaluator.evaluate(challenge(host: "other.test", chain: [leaf]))
            }
            #expect(throws: ServerTrustEvaluator.Error.domainPolicyExpired) {
                try evaluator.evaluate(challenge(host: "example.test", chain: [leaf]))
            }
            let live = try ServerTrustEvaluator(configuration: .init(pinningPolicies: [policy("example.test", pins: [leaf])]))
            try live.evaluate(challenge(host: "example.test", chain: [Catalogue.unrelated, leaf]))
            #expect(throws: ServerTrustEvaluator.Error.pinVerificationFailed(.pinnedHashNotFound)) {
                try live.evaluate(challenge(host: "example.test", chain: [Catalogue.unrelated], served: [Catalogue.unrelated, leaf]))
            }
            #expect(throws: ServerTrustEvaluator.Error.pinVerificationFailed(.noVerifiedChain)) {
                try live.evaluate(challenge(host: "example.test", chain: []))
            }
            #expect(throws: ServerTrustEvaluator.Error.pinVerificationFailed(.pinNotComputable(index: 0))) {
                try live.evaluate(challenge(host: "example.test", chain: ["", Catalogue.unrelated]))
            }
            let expired = ChainValidationFailure(kind: .expired, code: 10, reason: "certificate has expired", depth: 0)
            #expect(throws: ServerTrustEvaluator.Error.pinVerificationFailed(.evaluation(expired))) {
                try live.evaluate(challenge(host: "example.test", chain: [leaf], standard: .failure(expired)))
            }
        }
    }
}
