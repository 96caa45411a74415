@testable import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import ReferenceConformance
import TestTraits
import Testing

/// The reference stack, built as a hurried author would: every field of the environment passed on but the resolve
/// overrides.
private struct OverridesIgnoringSubject: ConformanceSubject {
    let reference = ReferenceSubject()
    var name: String { "overrides-ignored" }
    func makeStack(for environment: StackEnvironment) throws -> Network.URLSessionNetworkStack {
        let forgetful = StackEnvironment(
            authenticationChallengeHandler: environment.authenticationChallengeHandler, trustedRootFiles: environment.trustedRootFiles,
            trustedRootsArePublic: environment.trustedRootsArePublic, verificationTime: environment.verificationTime,
            resolveOverrides: [], retryQueue: environment.retryQueue, maximumResponseSize: environment.maximumResponseSize,
            resourceTimeout: environment.resourceTimeout, revocation: environment.revocation,
            maximumChainDepth: environment.maximumChainDepth, maximumRedirects: environment.maximumRedirects)
        return try reference.makeStack(for: forgetful)
    }
    func tearDown(_ stack: Network.URLSessionNetworkStack) { reference.tearDown(stack) }
}

@Suite("A subject that ignores a field of its environment is told so, once", .scaledTimeLimit(minutes: 2), .blocking)
struct EnvironmentHintTests {

    @Test("a stack that ignores resolveOverrides gets one hint naming the field, the symptom and the cases, in text and Markdown")
    func ignoredOverridesNamed() async throws {
        let cases = Catalogue.all.filter { $0.requires.contains(.resolveOverrides) && !$0.id.hasSuffix(".h2") }.prefix(6)
        try #require(cases.count >= 2)
        let report = try await ConformanceRunner(subject: OverridesIgnoringSubject()).run(Array(cases))
        let hints = EnvironmentHint.hints(for: report)
        #expect(hints.map(\.field) == ["resolveOverrides"])
        let hint = try #require(hints.first)
        #expect(hint.cases.count >= 2)
        #expect(
            hint.text.hasPrefix(
                "the subject seems to ignore StackEnvironment.resolveOverrides: \(hint.cases.count) of the \(hint.ran) cases"))
        #expect(
            TextReport.render(report).components(separatedBy: "Hint: the subject seems to ignore StackEnvironment.resolveOverrides").count
                == 2)
        #expect(MarkdownReport.render(report).contains("## Hints for the subject's author\n\n- the subject seems to ignore"))
    }

    @Test("the reference stack, which uses every field, gets no hint")
    func noHintForTheReference() async throws {
        let report = try await ReferenceRun.report.value
        #expect(EnvironmentHint.hints(for: report).isEmpty)
    }
}
