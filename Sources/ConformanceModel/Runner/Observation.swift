import Foundation
import MockServer
import NetworkCore

/// What one case saw, taken once at its end: what the fetches, the recording interceptors and the trust
/// handler recorded, the requests the server read, and its journal. The case's expectation is judged against it
/// (``Expectation/mismatches(in:)``, ``Check/mismatch(in:)``).
struct Observation: Sendable {
    /// The outcome of the case's own fetch.
    let outcome: Outcome?
    let completions: Int
    /// The most completions any one fetch had; more than 1 breaks FETCH-1 whatever the outcome.
    let mostCompletionsOfOneFetch: Int
    let hookLog: [HookEvent]
    /// The hooks that ran after the runner cancelled the fetch (`nil`: it never cancelled).
    let hooksAfterCancel: [HookEvent]?
    let priorityCalls: [String]
    /// The requests the server read, in arrival order.
    let requests: [RecordedRequest]
    let journal: [JournalEntry]
    let challenges: [ServerTrustChallenge]
    let clientCertificateChallenges: [ClientCertificateChallenge]
    /// When each request reached the server, in seconds from the case's start (recorded only for cases
    /// with ``Check/requestGap(index:atLeast:atMost:)``).
    let requestArrivals: [Double]
    /// The outcomes of the fetches besides the case's own (``CaseAction/concurrent(paths:)``, probes, hosts).
    let otherOutcomes: [(path: String, outcome: Outcome)]
    /// The path of the case's own fetch, when it ran beside others.
    let outcomePath: String

    /// The observation of a case judged before any stack was made: an outcome, and the journal of a server no
    /// client reached.
    init(outcome: Outcome, journal: [JournalEntry]) {
        self.outcome = outcome
        self.journal = journal
        (completions, mostCompletionsOfOneFetch, hookLog, hooksAfterCancel, priorityCalls) = (0, 0, [], nil, [])
        (requests, challenges, clientCertificateChallenges, requestArrivals, otherOutcomes, outcomePath) = ([], [], [], [], [], "/")
    }

    /// The observation at the end of a case, once its stack is gone and the server's connections have settled
    /// (``CaseServer/settle()``); the port in error texts is replaced by a placeholder, so that runs compare.
    init(recorders: CaseRecorders, server: CaseServer, requests: [RecordedRequest], outcomePath: String) {
        let port = server.port
        let completed = recorders.completions
        outcome = completed.outcomes.last.map { $0.withStableDetail(port: port) }
        completions = completed.outcomes.count + completed.extraCompletions
        mostCompletionsOfOneFetch = completed.mostCompletionsOfOneFetch
        hookLog = recorders.hooks.hooks
        hooksAfterCancel = recorders.hooks.hooksAfterCancel
        priorityCalls = recorders.priority.calls
        challenges = recorders.challenges.challenges
        clientCertificateChallenges = recorders.challenges.clientCertificateChallenges
        otherOutcomes = completed.otherOutcomes.map { ($0.path, $0.outcome.withStableDetail(port: port)) }
        self.outcomePath = outcomePath
        requestArrivals = server.dispatch?.arrivals ?? []
        self.requests = requests
        journal = server.journal
    }

    /// The hooks of the first recording interceptor only, of one kind (`failure`, `scheduled`): state checks read
    /// one interceptor's view, so that two recorders do not double every entry.
    func primaryHooks(_ hook: String) -> [HookEvent] {
        let first = hookLog.first?.interceptor
        return hookLog.filter { $0.interceptor == first && $0.hook == hook }
    }
}

/// One hook call of a recording interceptor.
struct HookEvent: Sendable {
    var interceptor: String
    var hook: String
    var taskIdentifier: Int?
    var retryCount: Int
    var totalDelay: Double
}

extension [HookEvent] {
    /// The first hook whose task identifier breaks FETCH-11, described; `nil` when none does. Each recording
    /// interceptor's hooks are read on their own: a scheduled hook starts an attempt and must carry an identifier
    /// no earlier hook carried, and a failed or success hook reports on the attempt scheduled last, so it must
    /// carry that attempt's identifier.
    var firstMisattributedTaskIdentifier: String? {
        var seen: [String: Set<Int>] = [:]
        var current: [String: Int] = [:]
        for event in self where event.hook != "make" {
            let name = "\(event.interceptor).\(event.hook)"
            guard let identifier = event.taskIdentifier else { return "\(name) without a task identifier" }
            if event.hook == "scheduled" {
                if seen[event.interceptor, default: []].contains(identifier) { return "\(name) reused task identifier \(identifier)" }
                current[event.interceptor] = identifier
            } else if let attempt = current[event.interceptor], identifier != attempt {
                return "\(name) carried task identifier \(identifier), its attempt's is \(attempt)"
            }
            seen[event.interceptor, default: []].insert(identifier)
        }
        return nil
    }
}
