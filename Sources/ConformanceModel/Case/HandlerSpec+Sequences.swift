import Foundation
import NetworkCore

extension HandlerSpec {

    /// A handler that answers these dispositions in turn, one per challenge, the last one repeating: a case
    /// can trust the first connection and refuse the next, to show that the next one was asked at all.
    package static func sequence(_ dispositions: [ScriptedDisposition]) -> HandlerSpec {
        HandlerSpec(
            name: "sequence(\(dispositions.map(\.rawValue).joined(separator: ", ")))",
            readsVerifiedChain: dispositions.contains(.refuseUnlessValid)
        ) { _ in
            SequencedChallengeHandler(dispositions)
        }
    }

    /// A handler that answers `first` until ``CaseAction/fetchReconfigureFetch`` changes it to `then`: a
    /// lax handler made strict between two fetches on one pooled connection.
    package static func reconfiguredScripted(_ first: ScriptedDisposition, then: ScriptedDisposition) -> HandlerSpec {
        HandlerSpec(
            name: "scripted(\(first.rawValue)), then scripted(\(then.rawValue))",
            readsVerifiedChain: [first, then].contains(.refuseUnlessValid)
        ) { _ in
            let handler = SequencedChallengeHandler([first])
            return ReconfigurableChallengeHandler(wrapped: handler) { handler.replace(with: [then]) }
        }
    }
}

/// Answers scripted dispositions in turn; the last one repeats.
final class SequencedChallengeHandler: AuthenticationChallengeHandler {
    private let remaining: Locked<[HandlerSpec.ScriptedDisposition]>

    init(_ dispositions: [HandlerSpec.ScriptedDisposition]) {
        remaining = Locked(dispositions.isEmpty ? [.performDefaultHandling] : dispositions)
    }

    /// Answers these from now on.
    func replace(with dispositions: [HandlerSpec.ScriptedDisposition]) {
        remaining.withLock { $0 = dispositions.isEmpty ? [.performDefaultHandling] : dispositions }
    }

    func handle(_ challenge: ServerTrustChallenge) -> ServerTrustChallenge.Disposition {
        let next = remaining.withLock { $0.count > 1 ? $0.removeFirst() : $0[0] }
        return ScriptedChallengeHandler(next).handle(challenge)
    }
}
