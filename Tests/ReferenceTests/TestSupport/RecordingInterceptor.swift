import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference
import NetworkCore

/// An interceptor that records every hook call and answers failures with scripted actions.
final class RecordingInterceptor: URLSessionResourceInterceptor {

    struct Event: Sendable {
        var hook: String
        var taskIdentifier: Int?
        var retryCount: Int
        var totalDelay: Retry.Delay
        var error: String?
    }

    private let name: String
    private let log: Locked<[Event]> = Locked([])
    private let actions: Locked<[Retry.Action]>
    private let shared: OrderLog?

    /// - Parameters:
    ///   - actions: the answers to successive failures (`.none` once exhausted).
    ///   - order: a log shared by several interceptors, to check their order.
    init(name: String = "i", actions: [Retry.Action] = [], order: OrderLog? = nil) {
        self.name = name
        self.actions = Locked(actions)
        self.shared = order
    }

    var events: [Event] { log.withLock { $0 } }
    func hooks() -> [String] { events.map(\.hook) }

    private func record(_ hook: String, _ id: Int?, _ state: Retry.State, error: String? = nil) {
        log.withLock {
            $0.append(Event(hook: hook, taskIdentifier: id, retryCount: state.retryCount, totalDelay: state.totalDelay, error: error))
        }
    }

    func interceptMakeRequestResult(_ result: Result<URLRequest, Error>, handler: @escaping Network.URLSessionResource.MakeRequestHandler)
        -> Cancelable
    {
        log.withLock { $0.append(Event(hook: "make", taskIdentifier: nil, retryCount: 0, totalDelay: 0)) }
        _ = order("make")
        return handler(result)
    }

    func interceptScheduledTask(withIdentifier taskIdentifier: Int, request: URLRequest, retryState: Retry.State) {
        record("scheduled", taskIdentifier, retryState)
        _ = order("scheduled")
    }

    func interceptSuccessfulTask(
        withIdentifier taskIdentifier: Int, request: URLRequest, data: Data, response: URLResponse, retryState: Retry.State
    ) {
        record("success", taskIdentifier, retryState)
        _ = order("success")
    }

    func interceptFailedTask(
        withIdentifier taskIdentifier: Int, request: URLRequest, data: Data?, response: URLResponse?, error: Network.URLSessionError,
        retryState: Retry.State
    ) -> Retry.Action {
        record("failure", taskIdentifier, retryState, error: "\(error)")
        _ = order("failure")
        return actions.withLock { $0.isEmpty ? .none : $0.removeFirst() }
    }

    private func order(_ hook: String) -> Bool {
        shared?.append("\(name).\(hook)")
        return true
    }
}

/// A log several interceptors append to, to check the order they run in.
final class OrderLog: Sendable {
    private let entries = Locked<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
