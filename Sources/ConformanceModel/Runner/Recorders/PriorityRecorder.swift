import NetworkCore

/// The pairs of retry actions the resource's priority closure was asked to choose between, as `lhs|rhs`.
final class PriorityRecorder: Sendable {
    private let recorded = Locked([String]())

    func record(_ lhs: Retry.Action, _ rhs: Retry.Action) {
        recorded.withLock { $0.append("\(ActionName.describe(lhs))|\(ActionName.describe(rhs))") }
    }

    var calls: [String] { recorded.withLock { $0 } }
}
