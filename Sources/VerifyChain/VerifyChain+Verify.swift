import ArgumentParser
import Foundation
import Reference

extension VerifyChain {

    /// `verify-chain verify`: the chain check of the handshake, then the pins as a `ServerTrustEvaluator` checks them.
    struct Verify: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Validates a served chain for a host (the default subcommand).",
            discussion: """
                The same code the handshake runs: OpenSSL's path from the leaf to the trusted roots at the given time, \
                the validation profile's rules, then the host name. With --pin, a pinning policy for the host (or for \
                --policy's domain) is then checked over the verified chain, as the stack's ServerTrustEvaluator does: \
                each certificate whose pin matched is marked.
                """)

        @Argument(help: ArgumentHelp("The chain as a server would serve it, leaf first (PEM).", valueName: "served.pem"))
        var served: String

        @Option(help: "The host name or IP address asked for.")
        var host: String

        @Option(name: .customLong("trust"), help: ArgumentHelp("A PEM file of trusted roots (repeatable).", valueName: "pem"))
        var trust: [String] = []

        @Flag(help: "Trust the system's roots too.")
        var systemRoots = false

        @Option(help: ArgumentHelp("The verification time, ISO 8601 (default: now).", valueName: "time"))
        var at: String?

        /// The validation profiles the command offers.
        enum Profile: String, ExpressibleByArgument, CaseIterable {
            case strict, compatible
            var value: ValidationProfile { self == .strict ? .strict : .compatible }
        }

        @Option(help: "The validation profile: strict or compatible.")
        var profile: Profile = .strict

        @Option(help: "The port, as a refusal names it.")
        var port = 443

        @Option(help: ArgumentHelp("The most certificates above the leaf.", valueName: "n"))
        var maximumDepth: Int?

        @Option(
            name: .customLong("pin"),
            help: ArgumentHelp("A pin the verified chain must hold (repeatable), with or without sha256/.", valueName: "pin"))
        var pins: [String] = []

        @Option(help: ArgumentHelp("The pinning policy's domain (default: --host).", valueName: "domain"))
        var policy: String?

        @Flag(help: "The policy covers the subdomains of its domain too.")
        var includeSubdomains = false

        func validate() throws {
            guard !trust.isEmpty || systemRoots else { throw ValidationError("give --trust FILE or --system-roots: no roots, no path") }
            if let at, Self.time(at) == nil { throw ValidationError("--at needs an ISO 8601 time such as 2026-11-26T12:00:00Z, not \(at)") }
            if let maximumDepth, maximumDepth < 0 { throw ValidationError("--maximum-depth needs 0 or more, not \(maximumDepth)") }
            if pins.isEmpty, policy != nil || includeSubdomains { throw ValidationError("--policy and --include-subdomains need --pin") }
            _ = try pinningPolicy()
        }

        /// The policy --pin, --policy and --include-subdomains describe, or `nil` without pins.
        private func pinningPolicy() throws -> ServerTrustEvaluator.PinningPolicy? {
            guard !pins.isEmpty else { return nil }
            do {
                return try ServerTrustEvaluator.PinningPolicy(
                    domainName: policy ?? host, includeSubdomains: includeSubdomains, pinnedHashes: Set(pins), enforceBackupPin: false)
            } catch {
                throw ValidationError("\(error)")
            }
        }

        func run() throws {
            for path in [served] + trust where !FileManager.default.fileExists(atPath: path) {
                throw Failure(status: 66, message: "no such file: \(path)")
            }
            let certificates: [ServerCertificate]
            let verifier: ChainVerifier
            do {
                certificates = try ServerCertificate.certificates(pemFile: served)
                let roots: TrustRoots = systemRoots ? try .system(addingPEMFiles: trust) : try .only(pemFiles: trust)
                verifier = try ChainVerifier(trustRoots: roots, validationProfile: profile.value, maximumChainDepth: maximumDepth)
            } catch {
                throw Failure(status: 65, message: "\(error)")
            }
            let time = at.flatMap(Self.time) ?? Date()
            let when = "for \(host) at \(ISO8601DateFormatter().string(from: time)), profile \(profile.rawValue)"
            let chain: [ServerCertificate]
            switch verifier.verify(certificates, host: host, at: time) {
            case .success(let verified):
                chain = verified
            case .failure(let failure):
                print("refused \(when): \(failure)")
                print("served:")
                Self.list(certificates)
                throw ExitCode.failure
            }
            guard let policy = try pinningPolicy() else {
                print("verified \(when):")
                Self.list(chain)
                return
            }
            let challenge = ServerTrustChallenge(
                host: host, port: port, servedChain: certificates, verifiedChain: chain, standardValidation: .success(()),
                verificationTime: time, isReusedConnection: false, validationProfile: profile.value)
            let evaluator = try ServerTrustEvaluator(configuration: .init(pinningPolicies: [policy]))
            switch evaluator.handle(challenge) {
            case .useCredential:
                print("verified and pinned \(when), policy \(policy):")
                Self.list(chain, matching: policy.canonicalPins)
            case .cancelAuthenticationChallenge(let refusal):
                print("refused \(when): \(refusal)")
                print("verified chain:")
                Self.list(chain, matching: policy.canonicalPins)
                throw ExitCode.failure
            case .performDefaultHandling:
                throw Failure(status: 70, message: "the evaluator asked for default handling, which a policy with pins never does")
            }
        }

        /// The chain, one certificate per line with its pin, marking those a configured pin (canonical) matched.
        private static func list(_ chain: [ServerCertificate], matching pins: Set<String> = []) {
            for (depth, certificate) in chain.enumerated() {
                let mark = pins.contains(certificate.spkiSHA256) ? "  <- matches a configured pin" : ""
                print("  \(depth): \(certificate.subject)  (issuer \(certificate.issuer); pin \(certificate.spkiSHA256))\(mark)")
            }
        }

        private static func time(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }
    }
}
