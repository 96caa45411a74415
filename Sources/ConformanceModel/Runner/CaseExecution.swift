import Dispatch
import Foundation
import NetworkCore

/// Runs one case against one subject, synchronously, on the calling thread (never the cooperative pool:
/// it blocks on semaphores), and returns its verdict with the evidence.
///
/// A case runs in stages: its server (``CaseServer``) and recorders; its handler (``CaseHandler``), which alone
/// decides a case about a configuration error; the subject's stack, made for the case's ``StackEnvironment``;
/// the driver of its action (``CaseAction/driver(endingAbandonedTransfers:)``), whose waits end in HANG at the
/// case's deadline; one ``Observation``, taken once the stack is gone; and the ``Expectation`` judged on it.
struct CaseExecution<Subject: ConformanceSubject> {
    let testCase: ConformanceCase
    let subject: Subject
    let fixtures: FixtureCatalogue
    /// The run's limit per case; a case with shorter time limits of its own gets a shorter one
    /// (``ConformanceCase/watchdog(capped:)``).
    let watchdog: TimeInterval
    /// How long to wait for a second completion that must never come.
    let grace: TimeInterval

    func run() -> CaseResult {
        let started = ContinuousClock.now
        var observation: Observation?
        let verdict: Verdict
        let reason: String?
        var mismatches: [String] = []
        do throws(CaseStop) {
            let seen = try observe()
            mismatches = testCase.expected.mismatches(in: seen)
            // A second completion resumes the continuation behind `fetch(resource:) async` twice, which traps any
            // caller but this guarded runner: it is the same fault as a trap, so it gets the same verdict.
            verdict = seen.mostCompletionsOfOneFetch > 1 ? .crash : mismatches.isEmpty ? .pass : .fail
            reason = mismatches.first
            observation = seen
        } catch {
            verdict = error.verdict
            reason = error.reason
        }
        let elapsed = ContinuousClock.now - started
        let expected = testCase.expected
        return CaseResult(
            id: testCase.id, title: testCase.title, rules: testCase.rules, level: testCase.level,
            verdict: verdict, reason: reason, mismatches: mismatches,
            expected: .init(outcome: expected.outcome, journal: expected.journal, checks: expected.reportedChecks),
            actual: observation?.outcome, completions: observation?.completions ?? 0, journal: observation?.journal ?? [],
            durationMilliseconds: elapsed.inMilliseconds, explanation: testCase.explanation)
    }

    private var limit: TimeInterval { testCase.watchdog(capped: watchdog) }

    // MARK: Stages

    /// Runs the case up to its observation, or to the reason it stopped.
    private func observe() throws(CaseStop) -> Observation {
        try requireFeatures()
        let deadline = DispatchTime.now() + limit
        let server = try CaseServer(for: testCase, fixtures: fixtures)
        defer { server.shutdown() }
        let recorders = server.makeRecorders()
        defer { recorders.handles.release() }
        let handler: (any AuthenticationChallengeHandler)?
        switch try CaseHandler(for: testCase, fixtures: fixtures, handles: recorders.handles, challenges: recorders.challenges) {
        case .judged(let outcome): return Observation(outcome: outcome, journal: server.journal)
        case .made(let made): handler = made
        }
        var stack: Subject.Stack? = try makeStack(
            for: try StackEnvironment(for: testCase, server: server, handler: handler, fixtures: fixtures))
        let waits = CaseWaits(recorders: recorders, server: server.server, deadline: deadline, limit: limit, grace: grace)
        do throws(CaseStop) {
            try act(on: &stack, waits)
        } catch {
            stack.map(subject.tearDown)
            throw error
        }
        stack.map(subject.tearDown)
        stack = nil
        server.settle()
        return Observation(recorders: recorders, server: server, requests: waits.allRequests(), outcomePath: testCase.action.outcomePath)
    }

    /// Stops the case, SKIP, at the first feature it needs (in name order) that the subject declared unsupported.
    private func requireFeatures() throws(CaseStop) {
        for feature in testCase.requiredFeatures(with: fixtures).sorted(by: { $0.rawValue < $1.rawValue }) {
            if let why = subject.unsupportedFeatures[feature] { throw .skip("\(feature.rawValue): \(why)") }
        }
    }

    private func makeStack(for environment: StackEnvironment) throws(CaseStop) -> Subject.Stack {
        do {
            return try subject.makeStack(for: environment)
        } catch let unsupported as SubjectUnsupported {
            throw .skip(unsupported.reason)
        } catch {
            throw .harness("the subject could not make a stack: \(error)")
        }
    }

    /// Carries out the case's action with its driver.
    private func act(on stack: inout Subject.Stack?, _ waits: CaseWaits) throws(CaseStop) {
        let resource = ResourceBuilder.resource(for: testCase.resource, recorders: waits.recorders)
        let ending = testCase.expected.checks.contains { $0 == .noRetryHookAfterCancel || $0 == .exchangeStoppedAfterCancel }
        guard let driver = testCase.action.driver(endingAbandonedTransfers: ending) else {
            return try testCase.action.stackRelease.drive(&stack, resource: resource, waits)
        }
        guard let stack else { return }
        let guarded = GuardedStack(stack, completions: waits.recorders.completions)
        try driver.drive(CaseFetches(stack: guarded, resource: resource, spec: testCase.resource, recorders: waits.recorders), waits)
    }
}
