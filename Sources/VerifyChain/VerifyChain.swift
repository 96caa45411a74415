import ArgumentParser
import Foundation
import Reference

/// `verify-chain`: the stack's standard validation of one served chain (``ChainVerifier``), without a server, so
/// that a user can ask why a chain is refused. Prints the verified chain, or the refusal with its rule and depth.
@main
struct VerifyChain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-chain",
        abstract: "Validates a certificate chain for a host as the reference stack's handshake does.",
        discussion: """
            The same code the handshake runs: OpenSSL's path from the leaf to the trusted roots at the given time, \
            the validation profile's rules, then the host name. Exit status: 0 when the chain is verified, 1 when it \
            is refused, 64 for a usage error, 65 for a file that holds no certificate, 66 for a missing file.
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

    @Option(help: ArgumentHelp("The most certificates above the leaf.", valueName: "n"))
    var maximumDepth: Int?

    func validate() throws {
        guard !trust.isEmpty || systemRoots else { throw ValidationError("give --trust FILE or --system-roots: no roots, no path") }
        if let at, Self.time(at) == nil { throw ValidationError("--at needs an ISO 8601 time such as 2026-11-26T12:00:00Z, not \(at)") }
        if let maximumDepth, maximumDepth < 0 { throw ValidationError("--maximum-depth needs 0 or more, not \(maximumDepth)") }
    }

    func run() throws {
        for path in [served] + trust where !FileManager.default.fileExists(atPath: path) {
            throw Failure(status: 66, message: "no such file: \(path)")
        }
        let certificates: [ServerCertificate]
        let roots: TrustRoots
        do {
            certificates = try ServerCertificate.certificates(pemFile: served)
            roots = systemRoots ? try .system(addingPEMFiles: trust) : try .only(pemFiles: trust)
        } catch {
            throw Failure(status: 65, message: "\(error)")
        }
        let verifier: ChainVerifier
        do {
            verifier = try ChainVerifier(
                trustRoots: roots, validationProfile: profile.value, maximumChainDepth: maximumDepth)
        } catch {
            throw Failure(status: 65, message: "\(error)")
        }
        let time = at.flatMap(Self.time) ?? Date()
        let when = "for \(host) at \(ISO8601DateFormatter().string(from: time)), profile \(profile.rawValue)"
        switch verifier.verify(certificates, host: host, at: time) {
        case .success(let chain):
            print("verified \(when):")
            Self.list(chain)
        case .failure(let failure):
            print("refused \(when): \(failure)")
            print("served:")
            Self.list(certificates)
            throw ExitCode.failure
        }
    }

    private static func list(_ chain: [ServerCertificate]) {
        for (depth, certificate) in chain.enumerated() {
            print("  \(depth): \(certificate.subject)  (issuer \(certificate.issuer); SPKI sha256/\(certificate.spkiSHA256))")
        }
    }

    private static func time(_ text: String) -> Date? { ISO8601DateFormatter().date(from: text) }

    /// A failure with its sysexits status, printed as one line.
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        let message: String
        var description: String { message }
    }

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
            Foundation.exit(failure.status)
        } catch {
            exit(withError: error)
        }
    }
}
