import Foundation
import Pinning
import Testing

extension PinningHandlers {

    /// A stack on another TLS library hands the handlers a challenge of its own making: these tests make one from
    /// PEM files, as such a stack would from its handshake.
    @Suite("A challenge made without the reference stack")
    struct StandaloneEvaluation {
        static let certificates = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/certs")

        func challenge(host: String = "localhost") throws -> ServerTrustChallenge {
            let served = try ServerCertificate.certificates(
                pemFile: Self.certificates.appendingPathComponent("valid-ec256/served.pem").path)
            let root = try ServerCertificate.certificates(pemFile: Self.certificates.appendingPathComponent("valid-ec256/root.pem").path)
            return ServerTrustChallenge(
                host: host, port: 443, servedChain: served, verifiedChain: served + root, standardValidation: .success(()),
                verificationTime: Date(), isReusedConnection: false)
        }

        func evaluator(pinning pins: [String]) throws -> ServerTrustEvaluator {
            try ServerTrustEvaluator(
                configuration: .init(
                    pinningPolicies: [try .init(domainName: "localhost", pinnedHashes: Set(pins), enforceBackupPin: false)],
                    certificateCheckingOrder: .leafToRoot, allowNotPinnedDomains: false, allowExpiredDomainPolicies: false))
        }

        @Test("a pin on the intermediate of the verified chain is trusted")
        func pinnedIntermediate() throws {
            let challenge = try challenge()
            let intermediate = try #require(challenge.verifiedChain.dropFirst().first)
            guard case .useCredential = try evaluator(pinning: [intermediate.spkiSHA256]).handle(challenge) else {
                Issue.record("a pinned intermediate was refused")
                return
            }
        }

        @Test("no pin in the chain is refused, naming the host, the configured pins and the pins seen")
        func noPinMatched() throws {
            let unknown = String(repeating: "A", count: 43) + "="
            let challenge = try challenge()
            guard case .cancelAuthenticationChallenge(let failure) = try evaluator(pinning: [unknown]).handle(challenge) else {
                Issue.record("an unpinned chain was trusted")
                return
            }
            #expect(failure.reason == .noPinMatched)
            #expect(failure.host == "localhost")
            #expect(failure.configuredPins == [unknown])
            #expect(failure.seenCertificates.map(\.spkiSHA256) == challenge.verifiedChain.map(\.spkiSHA256))
        }
    }
}
