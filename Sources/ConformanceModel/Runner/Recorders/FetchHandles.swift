import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// Not a recorder: what the case keeps to act on its fetch (its cancelable, a request maker left pending, the
/// change a reconfigurable handler applies), released when the case ends.
final class FetchHandles: Sendable {
    private struct State {
        var cancelable: (any Cancelable)?
        var pendingRequestHandler: Network.BaseRequestMaking<URLRequest>.Handler?
        var reconfigure: (@Sendable () -> Void)?
    }

    private let state = Locked(State())

    /// The case's fetch, for the interceptors and drivers that cancel it.
    var cancelable: (any Cancelable)? {
        get { state.withLock { $0.cancelable } }
        set { state.withLock { $0.cancelable = newValue } }
    }

    func keepPendingHandler(_ handler: @escaping Network.BaseRequestMaking<URLRequest>.Handler) {
        state.withLock { $0.pendingRequestHandler = handler }
    }

    /// Answers the pending request maker late (after cancellation) with a request to `url`: nothing may be sent.
    func answerPendingHandler(with url: URL) {
        let handler = state.withLock { $0.pendingRequestHandler }
        _ = handler?(.success(URLRequest(url: url)))
    }

    /// The change ``CaseAction/fetchReconfigureFetch`` applies to the case's handler, if it has one.
    var reconfigure: (@Sendable () -> Void)? {
        get { state.withLock { $0.reconfigure } }
        set { state.withLock { $0.reconfigure = newValue } }
    }

    /// Drops them all. They lead back to the stack, and the stack's handler and interceptors lead back to the
    /// case's recorders: kept past the case, that cycle would leak every stack whose case used them.
    func release() {
        state.withLock { $0 = State() }
    }
}
