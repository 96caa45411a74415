import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import TestTraits
import Testing

// A compiling example for third parties: run the suite against your own stack inside `swift test`.
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
}

/// Your subject: how the runner builds your stack for a case.
struct LoggingSubject: ConformanceSubject {
    var name: String { "logging-example" }

    // Declare what you cannot do: those cases are SKIP with your reason instead of FAIL.
    var unsupportedFeatures: [SubjectFeature: String] {
        [
            .reusedConnectionRecheck: "the hook runs in the TLS handshake only",
            .challengeOverridesValidation: "the TLS library's verdict is final",
            .resolveOverrides: "no host overrides",
            .maximumResponseSize: "no body limit",
            .resourceTimeout: "no per-attempt limit",
        ]
    }

    func makeStack(for environment: StackEnvironment) throws -> LoggingStack {
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = environment.trustedRootFiles.isEmpty ? .only(pem: "") : try .only(pemFiles: environment.trustedRootFiles)
        configuration.verificationTime = environment.verificationTime
        let handler = environment.authenticationChallengeHandler.map { HandshakeOnlyHandler(wrapped: $0) }
        return LoggingStack(
            wrapping: Network.URLSessionNetworkStack(
                configuration: configuration, authenticationChallengeHandler: handler, retryQueue: environment.retryQueue))
    }
}

@Suite("Example: a custom subject in your own swift test", .timeLimit(.minutes(1)), .blocking)
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
