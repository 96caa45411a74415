import Foundation
import MockServer
import NetworkCore

/// Everything the runner saw during one case, which its checks are evaluated against.
struct Observation: Sendable {
    var outcome: Outcome?
    var completions: Int = 0
    /// The most completions any one fetch had; more than 1 breaks FETCH-1 whatever the outcome.
    var mostCompletionsOfOneFetch: Int = 0
    var hookLog: [HookEvent] = []
    /// The hooks that ran after the runner cancelled the fetch (`nil`: it never cancelled).
    var hooksAfterCancel: [HookEvent]?
    var priorityCalls: [String] = []
    var requests: [RecordedRequest] = []
    var journal: [JournalEntry] = []
    var challenges: [ServerTrustChallenge] = []
    /// When each request reached the server, in seconds from the case's start (recorded only for cases
    /// with ``Check/requestGap(index:atLeast:atMost:)``).
    var requestArrivals: [Double] = []
    /// The outcomes of the fetches besides the first (``CaseAction/concurrent(others:otherPath:)``, probes).
    var otherOutcomes: [(path: String, outcome: Outcome)] = []
    /// The path of the case's own fetch, when it ran beside others.
    var outcomePath: String = "/"

    /// The hooks of the first recording interceptor only: state checks read one interceptor's view.
    var primaryHooks: [HookEvent] {
        let first = hookLog.first?.interceptor
        return hookLog.filter { $0.interceptor == first }
    }

    /// The differences between the checks and what was seen, one line each.
    func mismatches(for checks: [Check]) -> [String] {
        checks.compactMap { check in
            let actual: String
            switch check {
            case .hooks(let expected):
                let seen = hookLog.map { "\($0.interceptor).\($0.hook)" }
                if seen == expected { return nil }
                actual = "\(seen)"
            case .noRetryHookAfterCancel:
                guard let after = hooksAfterCancel else { actual = "the runner never cancelled"; break }
                let late = after.filter { $0.hook == "failure" || $0.hook == "scheduled" }.map { "\($0.interceptor).\($0.hook)" }
                if late.isEmpty { return nil }
                actual = "\(late)"
            case .failureRetryCounts(let expected):
                let seen = primaryHooks.filter { $0.hook == "failure" }.map(\.retryCount)
                if seen == expected { return nil }
                actual = "\(seen)"
            case .failureTotalDelays(let expected):
                let seen = primaryHooks.filter { $0.hook == "failure" }.map(\.totalDelay)
                if seen.count == expected.count && zip(seen, expected).allSatisfy({ abs($0 - $1) < 1e-6 }) { return nil }
                actual = "\(seen)"
            case .scheduledRetryCounts(let expected):
                let seen = primaryHooks.filter { $0.hook == "scheduled" }.map(\.retryCount)
                if seen == expected { return nil }
                actual = "\(seen)"
            case .scheduledTotalDelays(let expected):
                // Only the first recorder's hooks, so that two recorders do not double every entry.
                let first = hookLog.first?.interceptor
                let seen = hookLog.filter { $0.hook == "scheduled" && $0.interceptor == first }.map(\.totalDelay)
                if seen.count == expected.count && zip(seen, expected).allSatisfy({ abs($0 - $1) < 1e-6 }) { return nil }
                actual = "\(seen)"
            case .distinctTaskIdentifiers(let expected):
                let seen = Set(hookLog.compactMap(\.taskIdentifier)).count
                if seen == expected { return nil }
                actual = "\(seen)"
            case .requestHeader(let index, let name, let value):
                guard requests.indices.contains(index) else { actual = "only \(requests.count) request(s)"; break }
                let seen = requests[index].header(name)
                if seen == value { return nil }
                actual = seen ?? "absent"
            case .requestMethod(let index, let method):
                guard requests.indices.contains(index) else { actual = "only \(requests.count) request(s)"; break }
                if requests[index].method == method { return nil }
                actual = requests[index].method
            case .requestBody(let index, let body):
                guard requests.indices.contains(index) else { actual = "only \(requests.count) request(s)"; break }
                if requests[index].bodyText == body { return nil }
                actual = requests[index].bodyText.debugDescription
            case .requestPath(let index, let path):
                guard requests.indices.contains(index) else { actual = "only \(requests.count) request(s)"; break }
                if requests[index].target == path { return nil }
                actual = requests[index].target
            case .completions(let expected):
                if completions == expected { return nil }
                actual = "\(completions)"
            case .priorityCalls(let expected):
                if priorityCalls == expected { return nil }
                actual = "\(priorityCalls)"
            case .challenges(let expected):
                if challenges.count == expected { return nil }
                actual = "\(challenges.count)"
            case .challengedHosts(let expected):
                let hosts = challenges.map(\.host).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }
                if hosts == expected { return nil }
                actual = "\(hosts)"
            case .challenge(let host, let servedPins, let verifiedPins):
                guard let first = challenges.first else { actual = "no challenge"; break }
                let served = first.servedChain.map(\.spkiSHA256)
                let verified = first.verifiedChain.map(\.spkiSHA256)
                if first.host == host && (servedPins.map { $0 == served } ?? true) && (verifiedPins.map { $0 == verified } ?? true) {
                    return nil
                }
                actual = "host \(first.host), served \(served), verified \(verified)"
            case .challengeStandardValidation(let expected):
                guard let first = challenges.first else { actual = "no challenge"; break }
                let seen: String
                switch first.standardValidation {
                case .success: seen = "valid"
                case .failure(let failure): seen = failure.kind.rawValue
                }
                if seen == expected { return nil }
                actual = seen
            case .laterChallengesAreReused:
                let flags = challenges.dropFirst().map(\.isReusedConnection)
                if flags.allSatisfy({ $0 }) { return nil }
                actual = "reuse flags \(challenges.map(\.isReusedConnection))"
            case .lastChallengeStandardValidation(let expected):
                guard let last = challenges.last else { actual = "no challenge"; break }
                let seen: String
                switch last.standardValidation {
                case .success: seen = "valid"
                case .failure(let failure): seen = failure.kind.rawValue
                }
                if seen == expected { return nil }
                actual = seen
            case .presentedClientCertificates(let expected):
                let seen = journal.compactMap { $0.clientCertificate.map { $0.first ?? "none" } }
                if seen == expected { return nil }
                actual = "\(seen)"
            case .requestSNI(let index, let name):
                guard requests.indices.contains(index) else { actual = "only \(requests.count) request(s)"; break }
                let seen = requests[index].sniName
                if seen?.caseInsensitiveCompare(name) == .orderedSame { return nil }
                actual = seen ?? "no SNI"
            case .requestGap(let index, let low, let high):
                guard index > 0, requestArrivals.indices.contains(index) else {
                    actual = "only \(requestArrivals.count) request(s) timed"; break
                }
                let gap = requestArrivals[index] - requestArrivals[index - 1]
                if gap >= low && gap <= high { return nil }
                actual = String(format: "%.3f s", gap)
            case .fetches(let path, let kind, let count):
                let all = (outcome.map { [(outcomePath, $0)] } ?? []) + otherOutcomes.map { ($0.path, $0.outcome) }
                let atPath = all.filter { $0.0 == path }.map(\.1)
                let seen = atPath.filter { $0.kind == kind }.count
                if seen == count { return nil }
                actual =
                    "\(seen) of \(atPath.count): \(Dictionary(grouping: atPath.map(\.description), by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key })"
            case .noFetchFailedWith(let code):
                let all = (outcome.map { [$0] } ?? []) + otherOutcomes.map(\.outcome)
                let failed = all.filter { $0.urlErrorCode == code }.count
                if failed == 0 { return nil }
                actual = "\(failed) fetch(es)"
            }
            return "\(check): got \(actual)"
        }
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
