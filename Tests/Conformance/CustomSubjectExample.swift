import ArgumentParser
import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import TestTraits
import Testing

// A compiling example for third parties: run the suite against your own stack inside `swift test`, or from a
// command of your own that takes options of its own beside the suite's.
//
// `LoggingStack` stands for "your stack": any `NetworkStack` whose Resource is `Network.URLSessionResource`,
// Remote `Data`, Response `URLResponse` and FetchError `Network.URLSessionError`. Here it decorates the
// reference stack and counts fetches, so the example stays tiny.

/// Your stack.
final class LoggingStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    private let wrapped: Network.URLSessionNetworkStack

    init(wrapping wrapped: Network.URLSessionNetworkStack) { self.wrapped = wrapped }

    @discardableResult
    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        wrapped.fetch(resource: resource, completion: completion)
    }
}

/// A TLS hook weaker than the reference's, as many stacks have: it runs in the handshake only (a reused
/// connection is never asked about again), and the TLS library's verdict is final (the handler may refuse a
/// chain the library accepted, never trust one it refused).
struct HandshakeOnlyHandler: AuthenticationChallengeHandler {
    let wrapped: any AuthenticationChallengeHandler

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        if challenge.isReusedConnection { return .useCredential }
        let answer = wrapped.handle(challenge)
        if case .failure = challenge.standardValidation, case .useCredential = answer { return .performDefaultHandling }
        return answer
    }

    /// A wrapper forwards every kind of challenge: one it did not would answer servers that ask for a client
    /// certificate with none, whatever the case's handler says.
    func handle(_ challenge: ClientCertificateChallenge) -> ClientCertificateChallenge.Disposition { wrapped.handle(challenge) }
}

/// Your subject: how the runner builds your stack for a case.
struct LoggingSubject: ConformanceSubject {
    /// The name reports give the subject.
    var name = "logging-example"

    // Declare what you cannot do: those cases are SKIP with your reason instead of FAIL.
    var unsupportedFeatures: [SubjectFeature: String] {
        [
            .reusedConnectionRecheck: "the hook runs in the TLS handshake only",
            .challengeOverridesValidation: "the TLS library's verdict is final",
            .resolveOverrides: "no host overrides",
            .maximumResponseSize: "no body limit",
            .resourceTimeout: "no per-attempt limit",
            .revocation: "no revocation checks",
        ]
    }

    func makeStack(for environment: StackEnvironment) throws -> LoggingStack {
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots =
            environment.trustedRootFiles.isEmpty
            ? .only(pem: "") : try .only(pemFiles: environment.trustedRootFiles, public: environment.trustedRootsArePublic)
        configuration.verificationTime = environment.verificationTime
        configuration.maximumChainDepth = environment.maximumChainDepth
        if let limit = environment.maximumRedirects { configuration.redirects = .follow(maximum: limit) }
        let handler = environment.authenticationChallengeHandler.map { HandshakeOnlyHandler(wrapped: $0) }
        return LoggingStack(
            wrapping: Network.URLSessionNetworkStack(
                configuration: configuration, authenticationChallengeHandler: handler, retryQueue: environment.retryQueue))
    }
}

/// Your command (`@main` in an executable target of yours): the suite's options, and one of your own that shapes
/// the subject. `logging-conformance --report-name nightly --filter 'retry.*' -j 4 --format json --output r.json`.
struct LoggingConformance: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logging-conformance", abstract: "Runs the conformance suite against LoggingStack.")

    @Option(help: "The subject's name in the report.")
    var reportName = "logging-example"

    @OptionGroup(title: "Conformance options")
    var conformance: ConformanceOptions

    func run() throws {
        try conformance.run(subject: LoggingSubject(name: reportName))
    }
}

@Suite("Example: a custom subject in your own swift test", .scaledTimeLimit(minutes: 1), .blocking)
struct CustomSubjectExample {

    @Test("every MUST case of the retry and cancellation families passes against a custom stack")
    func customSubjectConforms() async throws {
        let runner = try ConformanceRunner(subject: LoggingSubject())
        let report = await runner.run(Catalogue.filter(Catalogue.all, glob: "retry.*,cancel.*,priority.table.*"))
        for result in report.cases where result.level == .must && result.verdict.failsRun {
            Issue.record("\(result.id): \(result.reason ?? "")")
        }
        #expect(report.summary.mustFailures == 0)
        #expect(report.summary.total > 50)
    }

    @Test("a case that needs an unsupported feature is SKIP with the subject's reason")
    func unsupportedFeatureIsSkip() throws {
        let runner = try ConformanceRunner(subject: LoggingSubject())
        let testCase = try #require(Catalogue.all.first { $0.id == "trust.handler.reused-connection-rechecked" })
        let result = runner.run(testCase)
        #expect(result.verdict == .skip)
        #expect(result.reason == "reused-connection-recheck: the hook runs in the TLS handshake only")
    }

    @Test("a command of your own takes an option of its own beside the suite's, and runs the suite with both")
    func commandWithAnOptionOfItsOwn() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("logging-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        // In a test this process is the test runner, which cannot be the suite's worker: --no-isolation.
        let command = try LoggingConformance.parse([
            "--report-name", "nightly", "--filter", "body.success.text", "--filter", "error.http.status-404", "-j", "2",
            "--no-isolation", "--quiet", "--format", "json", "--output", output.path,
        ])
        try command.run()
        let report = try JSONReport.decode(Data(contentsOf: output))
        #expect(report.subject.name == "nightly")
        #expect(Set(report.cases.map(\.id)) == ["body.success.text", "error.http.status-404"])
        #expect(report.summary.pass == 2)
    }

    @Test("a command of your own shows its option and the suite's in its help, and refuses the suite's bad values")
    func commandOfYourOwnHelpAndUsage() {
        let help = LoggingConformance.helpMessage()
        #expect(help.contains("--report-name"))
        #expect(help.contains("--watchdog"))
        #expect(!help.contains("conformance-worker"))
        #expect(throws: (any Error).self) { try LoggingConformance.parse(["--report-name", "x", "--jobs", "0"]) }
        do {
            _ = try LoggingConformance.parse(["--watchdog", "-1"])
            Issue.record("--watchdog -1 was accepted")
        } catch {
            #expect(LoggingConformance.exitCode(for: error) == .validationFailure)
        }
    }

    @Test("a stack with a weaker TLS hook gets SKIPs with reasons, and no MUST failure, from the trust and pinning cases")
    func weakerHookSkipsNotFails() async throws {
        let runner = try ConformanceRunner(subject: LoggingSubject())
        let report = await runner.run(Catalogue.filter(Catalogue.all, glob: "trust.*,pin.*"))
        for result in report.cases {
            switch result.verdict {
            case .pass, .skip: break
            // FAIL, ERROR, HANG, FLAKY, CRASH, and any verdict a later suite adds: a switch over verdicts needs a default.
            default: Issue.record("\(result.verdict) \(result.id): \(result.reason ?? "")")
            }
        }
        let skipped = report.cases.filter { $0.verdict == .skip }
        #expect(skipped.contains { $0.reason?.hasPrefix("reused-connection-recheck:") == true })
        #expect(skipped.contains { $0.reason?.hasPrefix("challenge-overrides-validation:") == true })
        #expect(report.summary.pass > 100)
    }
}
