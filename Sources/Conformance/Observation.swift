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
    var priorityCalls: [String] = []
    var requests: [RecordedRequest] = []
    var journal: [JournalEntry] = []
    var challenges: [ServerTrustChallenge] = []

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
            case .challenge(let host, let servedPins, let verifiedPins):
                guard let first = challenges.first else { actual = "no challenge"; break }
                let served = first.servedChain.map(\.spkiSHA256), verified = first.verifiedChain.map(\.spkiSHA256)
                if first.host == host && (servedPins.map { $0 == served } ?? true) && (verifiedPins.map { $0 == verified } ?? true) { return nil }
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
