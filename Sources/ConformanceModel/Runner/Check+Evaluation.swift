import Foundation
import MockServer
import NetworkCore

extension Check {
    /// This check judged against what a case observed: `nil` when it holds, otherwise one line with the check
    /// and what was seen instead.
    func mismatch(in observation: Observation) -> String? {
        seenInstead(in: observation).map { "\(self): got \($0)" }
    }

    /// What was seen, when it is not what the check expects; `nil` when the check holds.
    private func seenInstead(in seen: Observation) -> String? {
        switch self {
        case .hooks(let expected):
            return differs(seen.hookLog.map { "\($0.interceptor).\($0.hook)" }, expected)
        case .noRetryHookAfterCancel:
            guard let after = seen.hooksAfterCancel else { return "the runner never cancelled" }
            let late = after.filter { $0.hook == "failure" || $0.hook == "scheduled" }.map { "\($0.interceptor).\($0.hook)" }
            return late.isEmpty ? nil : "\(late)"
        case .exchangeStoppedAfterCancel:
            guard let connection = seen.journal.last(where: { $0.requests > 0 }) else { return "no connection carried the request" }
            if connection.closedBy == "client" { return nil }
            if connection.http2 == true, !(connection.http2ClientResets ?? []).isEmpty { return nil }
            return "the connection stayed open until the server \(connection.closedBy == "server" ? "closed it" : "ended")"
                + (connection.http2 == true ? ", its stream never reset" : "")
        case .failureRetryCounts(let expected):
            return differs(seen.primaryHooks("failure").map(\.retryCount), expected)
        case .failureTotalDelays(let expected):
            return differs(seen.primaryHooks("failure").map(\.totalDelay), about: expected)
        case .scheduledRetryCounts(let expected):
            return differs(seen.primaryHooks("scheduled").map(\.retryCount), expected)
        case .scheduledTotalDelays(let expected):
            return differs(seen.primaryHooks("scheduled").map(\.totalDelay), about: expected)
        case .distinctTaskIdentifiers(let expected):
            return differs(Set(seen.hookLog.compactMap(\.taskIdentifier)).count, expected)
        case .hooksCarryTheirAttemptsIdentifier:
            return seen.hookLog.firstMisattributedTaskIdentifier
        case .requestHeader(let index, let name, let value):
            return request(index, in: seen) { $0.header(name) == value ? nil : $0.header(name) ?? "absent" }
        case .requestMethod(let index, let method):
            return request(index, in: seen) { $0.method == method ? nil : $0.method }
        case .requestBody(let index, let body):
            return request(index, in: seen) { $0.bodyText == body ? nil : $0.bodyText.debugDescription }
        case .requestBodyBytes(let index, let body):
            return request(index, in: seen) { request in
                guard request.body != body else { return nil }
                let differing = zip(request.body, body).enumerated().first { $0.element.0 != $0.element.1 }?.offset
                return "\(request.body.count) bytes, the first difference at byte \(differing ?? min(request.body.count, body.count))"
            }
        case .requestPath(let index, let path):
            return request(index, in: seen) { $0.target == path ? nil : $0.target }
        case .requestSNI(let index, let name):
            return request(index, in: seen) { $0.sniName?.caseInsensitiveCompare(name) == .orderedSame ? nil : $0.sniName ?? "no SNI" }
        case .requestGap(let index, let low, let high):
            let arrivals = seen.requestArrivals
            guard index > 0, arrivals.indices.contains(index) else { return "only \(arrivals.count) request(s) timed" }
            let gap = arrivals[index] - arrivals[index - 1]
            return gap >= low && gap <= high ? nil : String(format: "%.3f s", gap)
        case .completions(let expected):
            return differs(seen.completions, expected)
        case .priorityCalls(let expected):
            return differs(seen.priorityCalls, expected)
        case .challenges(let expected):
            return differs(seen.challenges.count, expected)
        case .challengedHosts(let expected):
            return differs(seen.challenges.map(\.host).reduce(into: [String]()) { if !$0.contains($1) { $0.append($1) } }, expected)
        case .challenge(let host, let servedPins, let verifiedPins):
            guard let first = seen.challenges.first else { return "no challenge" }
            let served = first.servedChain.map(\.spkiSHA256)
            let verified = first.verifiedChain.map(\.spkiSHA256)
            let holds = first.host == host && (servedPins.map { $0 == served } ?? true) && (verifiedPins.map { $0 == verified } ?? true)
            return holds ? nil : "host \(first.host), served \(served), verified \(verified)"
        case .challengeStandardValidation(let expected):
            guard let first = seen.challenges.first else { return "no challenge" }
            return differs(Self.validation(of: first), expected)
        case .laterChallengesAreReused:
            let holds = seen.challenges.dropFirst().allSatisfy(\.isReusedConnection)
            return holds ? nil : "reuse flags \(seen.challenges.map(\.isReusedConnection))"
        case .lastChallengeStandardValidation(let expected):
            guard let last = seen.challenges.last else { return "no challenge" }
            return differs(Self.validation(of: last), expected)
        case .challengesCarryTheFirstEvidence:
            guard let first = seen.challenges.first else { return "no challenge" }
            func evidence(_ challenge: ServerTrustChallenge) -> String {
                "served \(challenge.servedChain.map(\.spkiSHA256)), verified \(challenge.verifiedChain.map(\.spkiSHA256)), "
                    + "\(Self.validation(of: challenge))\(challenge.isReusedConnection ? ", reused" : "")"
            }
            let other = seen.challenges.enumerated().first { evidence($0.element) != evidence(first) }
            return other.map { "challenge \($0.offset): \(evidence($0.element)); the first: \(evidence(first))" }
        case .presentedClientCertificates(let expected):
            return differs(seen.journal.compactMap { $0.clientCertificate.map { $0.first ?? "none" } }, expected)
        case .clientChallengesNameIssuers(let expected):
            let named = seen.clientCertificateChallenges.map(\.acceptableIssuers)
            return !named.isEmpty && named.allSatisfy { $0 == expected } ? nil : "challenges naming \(named)"
        case .clientChallengesReused(let expected):
            return differs(seen.clientCertificateChallenges.map(\.isReusedConnection), expected)
        case .fetches(let path, let kind, let count):
            let all = (seen.outcome.map { [(seen.outcomePath, $0)] } ?? []) + seen.otherOutcomes.map { ($0.path, $0.outcome) }
            let atPath = all.filter { $0.0 == path }.map(\.1)
            let ended = atPath.filter { $0.kind == kind }.count
            guard ended != count else { return nil }
            let tally = Dictionary(grouping: atPath.map(\.description), by: { $0 }).mapValues(\.count).sorted { $0.key < $1.key }
            return "\(ended) of \(atPath.count): \(tally)"
        case .noFetchFailedWith(let code):
            let all = (seen.outcome.map { [$0] } ?? []) + seen.otherOutcomes.map(\.outcome)
            let failed = all.filter { $0.urlErrorCode == code }.count
            return failed == 0 ? nil : "\(failed) fetch(es)"
        }
    }

    /// `seen`, described, when it is not `expected`.
    private func differs<T: Equatable>(_ seen: T, _ expected: T) -> String? {
        seen == expected ? nil : "\(seen)"
    }

    /// `seen`, described, when it is not `expected` to within 1 µs each.
    private func differs(_ seen: [Double], about expected: [Double]) -> String? {
        seen.count == expected.count && zip(seen, expected).allSatisfy({ abs($0 - $1) < 1e-6 }) ? nil : "\(seen)"
    }

    /// What `judge` says of the request at `index`, or how few requests there were.
    private func request(_ index: Int, in seen: Observation, _ judge: (RecordedRequest) -> String?) -> String? {
        seen.requests.indices.contains(index) ? judge(seen.requests[index]) : "only \(seen.requests.count) request(s)"
    }

    /// A challenge's standard validation as checks name it: `valid`, or the `ChainValidationFailure` kind.
    private static func validation(of challenge: ServerTrustChallenge) -> String {
        switch challenge.standardValidation {
        case .success: "valid"
        case .failure(let failure): failure.kind.rawValue
        }
    }
}
