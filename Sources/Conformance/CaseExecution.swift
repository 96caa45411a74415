import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

/// Runs one case against one subject, synchronously, on the calling thread (never the cooperative pool:
/// it blocks on semaphores), and returns its verdict with the evidence.
struct CaseExecution<Subject: ConformanceSubject> {
    let testCase: ConformanceCase
    let subject: Subject
    let fixtures: FixtureCatalogue
    /// The run's limit per case; a case with shorter time limits of its own gets a shorter one
    /// (``ConformanceCase/watchdog(capped:)``).
    let watchdog: TimeInterval
    /// How long to wait for a second completion that must never come.
    let grace: TimeInterval

    /// Why a case stops before a verdict is reached.
    private enum Stop: Error {
        case skip(String)
        case harness(String)
        case hang(String)
    }

    /// The name a configuration error is expected by: its type and case (`PinningPolicyValidationError.invalidPins`),
    /// or its type and description for a case without a payload.
    static func configurationErrorName(_ error: any Error) -> String {
        let type = String(describing: Swift.type(of: error))
        return "\(type).\(Mirror(reflecting: error).children.first?.label ?? "\(error)")"
    }

    func run() -> CaseResult {
        let started = ContinuousClock.now
        var observation = Observation()
        var verdict: Verdict
        var reason: String?
        var mismatches: [String] = []
        do {
            observation = try execute()
            let most = observation.mostCompletionsOfOneFetch
            mismatches =
                (most > 1
                    ? ["a fetch completed \(most == 2 ? "twice" : "\(most) times"); every fetch completes exactly once (FETCH-1)"]
                    : [])
                + testCase.expected.outcome.mismatches(against: observation.outcome!)
                + testCase.expected.journal.mismatches(against: observation.journal)
                + observation.mismatches(for: testCase.expected.checks)
            // A second completion resumes the continuation behind `fetch(resource:) async` twice, which traps any
            // caller but this guarded runner: it is the same fault as a trap, so it gets the same verdict.
            verdict = most > 1 ? .crash : mismatches.isEmpty ? .pass : .fail
            reason = mismatches.first
        } catch Stop.skip(let why) {
            verdict = .skip
            reason = why
        } catch Stop.harness(let why) {
            verdict = .error
            reason = why
        } catch Stop.hang(let why) {
            verdict = .hang
            reason = why
        } catch {
            verdict = .error
            reason = "\(error)"
        }
        let elapsed = ContinuousClock.now - started
        return CaseResult(
            id: testCase.id, title: testCase.title, rules: testCase.rules, level: testCase.level,
            verdict: verdict, reason: reason, mismatches: mismatches,
            expected: .init(
                outcome: testCase.expected.outcome, journal: testCase.expected.journal, checks: testCase.expected.checks.map(\.description)),
            actual: observation.outcome, completions: observation.completions, journal: observation.journal,
            durationMilliseconds: elapsed.inMilliseconds, explanation: testCase.explanation)
    }

    private var limit: TimeInterval { testCase.watchdog(capped: watchdog) }
    private var limitText: String { String(format: "%g", limit) }

    // MARK: Steps

    private func execute() throws -> Observation {
        for feature in testCase.requiredFeatures(with: fixtures).sorted(by: { $0.rawValue < $1.rawValue }) {
            if let why = subject.unsupportedFeatures[feature] { throw Stop.skip("\(feature.rawValue): \(why)") }
        }
        let deadline = DispatchTime.now() + limit
        let script = testCase.server
        let scenario = try script.tlsScenario.map { name -> FixtureCatalogue.Scenario in
            guard let scenario = fixtures.scenario(name), let served = scenario.served, let key = scenario.key else {
                throw Stop.harness("fixture scenario \(name) missing or without a chain")
            }
            _ = (served, key)
            return scenario
        }
        let server: MockServer
        do {
            server = try MockServer(
                tls: scenario.map {
                    var tls = MockServer.TLS(
                        identity: .init(chainFile: fixtures.path($0.served!), keyFile: fixtures.path($0.key!)),
                        maximumVersion: script.tlsMaximumVersion ?? .tls13, sessionResumption: script.sessionResumption,
                        httpVersions: script.httpVersions)
                    tls.servesWeakChains = $0.kind == "profile"  // weak on purpose (a P-192 CA key)
                    let clientRoots = fixtures.path("roots/root-a.pem")
                    switch script.clientCertificates {
                    case .required: tls.clientAuthentication = .required(trusting: clientRoots)
                    case .optional: tls.clientAuthentication = .optional(trusting: clientRoots)
                    case .postHandshake:
                        tls.minimumVersion = .tls13
                        tls.clientAuthentication = .postHandshake(trusting: clientRoots)
                    case nil: break
                    }
                    return tls
                })
        } catch {
            throw Stop.harness("MockServer did not start: \(error)")
        }
        defer { server.shutdown() }
        let dispatch = ScriptedDispatch.isNeeded(for: testCase) ? ScriptedDispatch(script: script, started: .now) : nil
        if let dispatch {
            server.dispatcher = dispatch.dispatcher
        } else {
            for response in script.responses { server.enqueue(response) }
            if let repeating = script.repeating { server.dispatcher = MockDispatcher { _ in repeating } }
        }

        let host = script.host
        let port = server.port
        let scheme = server.isTLS ? "https" : "http"
        let urlHost = server.isTLS ? (host.contains(":") ? "[\(host)]" : host) : "127.0.0.1"
        let context = CaseContext(
            url: { path in URL(string: "\(scheme)://\(urlHost):\(port)\(path)")! },
            hostURL: { host, path in URL(string: "\(scheme)://\(host):\(port)\(path)")! })
        defer { context.endCase() }

        var handler: (any AuthenticationChallengeHandler)?
        if let spec = testCase.stack.handler {
            do {
                let made = try spec.make(fixtures)
                if testCase.expected.outcome.kind == .configurationError {
                    // A configuration that should have been refused was accepted: the handler's fault, judged here,
                    // before a stack that the case never required anything of could change the verdict.
                    var observation = Observation()
                    observation.outcome = Outcome(kind: .success, detail: "the handler \(spec.name) was made: no configuration error")
                    observation.journal = server.journal.map(JournalEntry.init)
                    return observation
                }
                context.reconfigure = (made as? ReconfigurableChallengeHandler)?.reconfigure
                handler = RecordingChallengeHandler(wrapped: made, context: context)
            } catch  where testCase.expected.outcome.kind == .configurationError {
                // The case is about the configuration itself: its error is the outcome, and no stack is made.
                var observation = Observation()
                observation.outcome = Outcome(
                    kind: .configurationError, configurationError: Self.configurationErrorName(error), detail: "\(error)")
                observation.journal = server.journal.map(JournalEntry.init)
                return observation
            } catch {
                throw Stop.harness("handler \(spec.name) could not be made: \(error)")
            }
        }
        let roots = (testCase.stack.trustedRoots ?? scenario?.trust ?? []).map(fixtures.path)
        var otherHosts: [String] = []
        if case .hosts(let hosts) = testCase.action { otherHosts = hosts }
        let needsResolve =
            server.isTLS && ([host] + otherHosts).contains { $0 != "localhost" && $0.first?.isNumber != true && !$0.contains(":") }
        // The URL's spelling of the host and, when it differs, the canonical one (lower case, no trailing dot):
        // a stack may look the override up by either.
        let overrides = Set([host, script.canonicalHost] + otherHosts).sorted().map {
            HostOverride(host: $0, port: port, address: "127.0.0.1")
        }
        let environment = StackEnvironment(
            authenticationChallengeHandler: handler, trustedRootFiles: roots, verificationTime: testCase.stack.verificationTime,
            resolveOverrides: needsResolve ? overrides : [],
            retryQueue: DispatchQueue(label: "conformance.retry.\(testCase.id)"),
            maximumResponseSize: testCase.stack.maximumResponseSize, resourceTimeout: testCase.stack.resourceTimeout)
        var stack: Subject.Stack?
        do {
            stack = try subject.makeStack(for: environment)
        } catch let unsupported as SubjectUnsupported {
            throw Stop.skip(unsupported.reason)
        } catch {
            throw Stop.harness("the subject could not make a stack: \(error)")
        }
        let resource = ResourceBuilder.resource(for: testCase.resource, context: context)

        var taken: [RecordedRequest] = []
        do {
            try perform(
                testCase.action, stack: &stack, resource: resource, context: context, server: server, deadline: deadline, taken: &taken)
        } catch {
            stack.map(subject.tearDown)
            throw error
        }
        stack.map(subject.tearDown)
        stack = nil

        // The journal is read once every connection has ended (the stack is gone, so its side has closed), not
        // while a close is still under way: who closed and how are then settled, and two runs of the same
        // subject report the same journal. A connection still open at the deadline is reported open.
        let settled = ContinuousClock.now + .seconds(1)
        for record in server.journal where record.closedBy == nil {
            let remaining = settled - .now
            guard remaining > .zero else { break }
            _ = try? server.waitForClose(ofConnection: record.index, timeout: remaining)
        }

        var observation = Observation()
        observation.outcome = context.outcomes.last.map { $0.withStableDetail(port: port) }
        observation.completions = context.outcomes.count + context.extraCompletions
        observation.mostCompletionsOfOneFetch = context.mostCompletionsOfOneFetch
        observation.hookLog = context.hooks
        observation.hooksAfterCancel = context.hooksAfterCancel
        observation.priorityCalls = context.priorityCalls
        observation.challenges = context.challenges
        observation.otherOutcomes = context.otherOutcomes.map { ($0.path, $0.outcome.withStableDetail(port: port)) }
        if case .concurrent(let paths) = testCase.action, let first = paths.first { observation.outcomePath = first }
        observation.requestArrivals = dispatch?.arrivals ?? []
        while let request = try? server.takeRequest(timeout: .zero) { taken.append(request) }
        observation.requests = taken
        observation.journal = server.journal.map(JournalEntry.init)
        return observation
    }

    private func perform(
        _ action: CaseAction, stack: inout Subject.Stack?, resource: Network.URLSessionResource, context: CaseContext,
        server: MockServer, deadline: DispatchTime, taken: inout [RecordedRequest]
    ) throws {
        let complete: @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void = {
            context.complete(Outcome($0))
        }
        func awaitCompletion(_ stage: String) throws {
            guard context.waitForCompletion(until: deadline) else { throw Stop.hang("no completion within \(limitText) s (\(stage))") }
        }
        func awaitRequest() throws {
            let remaining = max(0.1, Double(deadline.uptimeNanoseconds) / 1e9 - Double(DispatchTime.now().uptimeNanoseconds) / 1e9)
            do {
                taken.append(try server.takeRequest(timeout: .milliseconds(Int(remaining * 1000))))
            } catch {
                throw Stop.hang("the request never reached the server within \(limitText) s")
            }
        }
        func graceWait() { _ = context.waitForCompletion(until: .now() + grace) }

        if case .releaseStackInFlight = action {
            stack?.fetch(resource: resource, completion: context.once(complete))
            try awaitRequest()
            stack = nil  // the runner held the only reference: the stack goes away here
            try awaitCompletion("after releasing the stack")
            graceWait()
            return
        }
        guard let unguarded = stack else { return }
        let current = GuardedStack(unguarded, context: context)

        switch action {
        case .fetch:
            context.fetchCancelable = current.fetch(resource: resource, completion: complete)
            try awaitCompletion("fetch")

        case .fetchAndDecode:
            current.fetchAndDecode(resource: resource, decoding: ModelDecoding<DecodedName, Data, URLResponse>.json()) { result in
                switch result {
                case .success(let value):
                    context.complete(
                        Outcome(kind: .success, status: (value.response as? HTTPURLResponse)?.statusCode, body: value.value.name))
                case .failure(.decode(let error)): context.complete(Outcome(kind: .decodeFailure, detail: "\(error)"))
                case .failure(.fetch(let error as Network.URLSessionError)): context.complete(Outcome(error))
                case .failure(.fetch(let error)): context.complete(Outcome(kind: .noRequest, detail: "not a URLSessionError: \(error)"))
                }
            }
            try awaitCompletion("fetchAndDecode")

        case .fetchAsync:
            let task = Task(executorPreference: DispatchTaskExecutor()) { [current] in
                do throws(Network.URLSessionError) { complete(.success(try await current.fetch(resource: resource))) } catch {
                    complete(.failure(error))
                }
            }
            _ = task
            try awaitCompletion("async fetch")

        case .cancel(let stage):
            let cancelable = current.fetch(resource: resource, completion: complete)
            context.fetchCancelable = cancelable
            switch stage {
            case .requestMaking:
                cancelable.cancel()
                try awaitCompletion("after cancelling during request making")
                context.answerPendingHandler()
            case .inFlight:
                try awaitRequest()
                context.markCancel()
                cancelable.cancel()
                try awaitCompletion("after cancelling in flight")
                if testCase.expected.checks.contains(.noRetryHookAfterCancel) {
                    endAbandonedTransfer(server: server, connection: taken.last?.connectionIndex, context: context)
                }
            case .retryDelay:
                guard context.waitForFailureHook(until: deadline) else { throw Stop.hang("the first attempt never failed") }
                cancelable.cancel()
                try awaitCompletion("after cancelling during the retry delay")
            case .afterCompletion:
                try awaitCompletion("fetch")
                cancelable.cancel()
            }
            graceWait()

        case .cancelAsyncTask:
            let task = Task(executorPreference: DispatchTaskExecutor()) { [current] in
                do throws(Network.URLSessionError) { complete(.success(try await current.fetch(resource: resource))) } catch {
                    complete(.failure(error))
                }
            }
            try awaitRequest()
            task.cancel()
            try awaitCompletion("after cancelling the task")
            graceWait()

        case .releaseStackInFlight:
            break  // handled above, without a local reference

        case .fetchReconfigureFetch:
            guard let reconfigure = context.reconfigure else { throw Stop.harness("the case's handler cannot be reconfigured") }
            current.fetch(resource: resource, completion: complete)
            try awaitCompletion("the fetch before the change")
            reconfigure()
            current.fetch(resource: resource, completion: complete)
            try awaitCompletion("the fetch after the change")

        case .cancelWhileRetryWaits(let probePath, let retryDelay):
            let cancelable = current.fetch(resource: resource, completion: complete)
            context.fetchCancelable = cancelable
            guard context.waitForFailureHook(until: deadline) else { throw Stop.hang("the first attempt never failed") }
            let failed = DispatchTime.now()
            let probe = ResourceBuilder.resource(for: ResourceSpec().with { $0.target = .server(probePath) }, context: context)
            current.fetch(resource: probe) { context.completeOther(Outcome($0), path: probePath) }
            try awaitCompletion("the probe fetch while the retry waits")
            cancelable.cancel()
            try awaitCompletion("after cancelling while the retry waits")
            // Until the retry would have reached the server, plus a margin: any request now is the retry.
            while let request = try? server.takeRequest(timeout: .zero) { taken.append(request) }
            let watchUntil = failed + retryDelay + 0.25
            let remaining = max(0, Double(Int64(watchUntil.uptimeNanoseconds) - Int64(DispatchTime.now().uptimeNanoseconds)) / 1e9)
            if let late = try? server.takeRequest(timeout: .milliseconds(Int(remaining * 1000))) { taken.append(late) }
            graceWait()

        case .concurrent(let paths):
            for (index, path) in paths.enumerated() {
                let resource = ResourceBuilder.resource(for: testCase.resource.with { $0.target = .server(path) }, context: context)
                if index == 0 {
                    current.fetch(resource: resource, completion: complete)
                } else {
                    current.fetch(resource: resource) { context.completeOther(Outcome($0), path: path) }
                }
            }
            for index in paths.indices { try awaitCompletion("concurrent fetch \(index + 1) of \(paths.count)") }

        case .sequential(let count):
            for index in 0..<count {
                current.fetch(resource: resource, completion: complete)
                try awaitCompletion("fetch \(index + 1) of \(count)")
            }

        case .hosts(let hosts):
            for (index, host) in hosts.enumerated() {
                let request = ResourceBuilder.request(for: testCase.resource, context: context)
                var retargeted = request
                retargeted.url = context.hostURL(host, request.url?.path ?? "/")
                let resource = ResourceBuilder.resource(for: testCase.resource, context: context, request: retargeted)
                if index == hosts.count - 1 {
                    current.fetch(resource: resource, completion: complete)
                } else {
                    current.fetch(resource: resource) { context.completeOther(Outcome($0), path: host) }
                }
                try awaitCompletion("the fetch of \(host), \(index + 1) of \(hosts.count)")
            }
        }
    }

    /// Ends the server's side of a cancelled fetch's connection, so that a stack that left the transfer running
    /// after the cancel sees it fail and shows it in the hooks: a failed hook, and a scheduled one when its policy
    /// retries. Without this the stalled server keeps such a transfer alive past the case, and only a crash at
    /// tear-down (a completion after the cancel) gives the bug away.
    ///
    /// A stack that stopped the transfer has closed its HTTP/1.1 connection already: waiting for that close
    /// first keeps the journal's "closed by" the client's, the same on every run. Then the server shuts down
    /// (idempotent; the case's `defer` does it again), and the runner waits, up to the grace period, for a failed
    /// hook that must not come.
    private func endAbandonedTransfer(server: MockServer, connection: Int?, context: CaseContext) {
        if let connection { _ = try? server.waitForClose(ofConnection: connection, timeout: .seconds(1)) }
        server.shutdown()
        _ = context.waitForFailureHook(until: .now() + grace)
    }
}
