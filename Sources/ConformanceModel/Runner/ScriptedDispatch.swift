import Foundation
import MockServer
import NetworkCore

/// Answers a case's requests from its script in place of the server's queue, when the case needs more than
/// the queue gives: the time each request arrived (for ``Check/requestGap(index:atLeast:atMost:)``) and
/// responses by path (``ServerScript/routes``).
///
/// The server calls a dispatcher once a request's body was read, so the script's faults with request
/// triggers cannot cut an upload short here; cases that script those faults keep the plain queue.
final class ScriptedDispatch: Sendable {
    private struct State {
        var queue: [MockResponse]
        var arrivals: [Double] = []
    }

    private let state: Locked<State>
    private let routes: [String: MockResponse]
    private let repeating: MockResponse?
    private let started: ContinuousClock.Instant

    /// Whether a case needs a dispatcher rather than the server's queue.
    static func isNeeded(for testCase: ConformanceCase) -> Bool {
        !testCase.server.routes.isEmpty
            || testCase.expected.checks.contains {
                if case .requestGap = $0 { true } else { false }
            }
    }

    init(script: ServerScript, started: ContinuousClock.Instant) {
        state = Locked(State(queue: script.responses))
        routes = script.routes
        repeating = script.repeating
        self.started = started
    }

    /// The dispatcher to install on the case's server.
    var dispatcher: MockDispatcher {
        MockDispatcher { [self] request in
            let elapsed = ContinuousClock.now - started
            let seconds = elapsed.inSeconds
            return state.withLock { state in
                state.arrivals.append(seconds)
                if let routed = routes[request.path] { return routed }
                // As the server's own queue: the scripted responses in order, then the repeating one or a 404.
                return state.queue.isEmpty ? (repeating ?? MockResponse(status: 404)) : state.queue.removeFirst()
            }
        }
    }

    /// When each request arrived, in seconds from the case's start, in arrival order.
    var arrivals: [Double] { state.withLock { $0.arrivals } }
}
