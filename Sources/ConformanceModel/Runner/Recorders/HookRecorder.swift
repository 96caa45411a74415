import Dispatch
import NetworkCore

/// The hooks the recording interceptors were called with, in order, and the moment the runner cancelled the case's
/// fetch; each failed hook is signalled to the runner, which may be waiting for the first attempt to fail.
final class HookRecorder: Sendable {
    private let state = Locked((hooks: [HookEvent](), countAtCancel: Int?.none))
    private let failureSignal = DispatchSemaphore(value: 0)

    func record(_ event: HookEvent) {
        state.withLock { $0.hooks.append(event) }
        if event.hook == "failure" { failureSignal.signal() }
    }

    /// Marks the moment the runner cancels the case's fetch: the hooks recorded from now on came after it.
    func markCancel() {
        state.withLock { $0.countAtCancel = $0.countAtCancel ?? $0.hooks.count }
    }

    var hooks: [HookEvent] { state.withLock { $0.hooks } }

    /// The hooks recorded after ``markCancel()``; `nil` when the runner never cancelled.
    var hooksAfterCancel: [HookEvent]? {
        state.withLock { state in state.countAtCancel.map { Array(state.hooks[$0...]) } }
    }

    /// Waits for one failed-hook call until the deadline; false on timeout.
    func waitForFailure(until deadline: DispatchTime) -> Bool {
        failureSignal.wait(timeout: deadline) == .success
    }
}
