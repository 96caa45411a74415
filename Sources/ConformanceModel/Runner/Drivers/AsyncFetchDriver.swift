import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// ``CaseAction/fetchAsync``: one fetch through the async `fetch(resource:)`.
struct AsyncFetchDriver: CaseDriver {
    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        _ = Self.start(fetches)
        try waits.completion("async fetch")
    }

    /// Starts the async fetch of the case's resource in a task of its own, on a ``DispatchTaskExecutor``; its
    /// result is the case's outcome. With `cancelledFirst`, the task cancels itself before it fetches.
    static func start(_ fetches: CaseFetches, cancelledFirst: Bool = false) -> Task<Void, Never> {
        let stack = fetches.stack
        let resource = fetches.resource
        let complete = fetches.complete
        return Task(executorPreference: DispatchTaskExecutor()) {
            if cancelledFirst { withUnsafeCurrentTask { $0?.cancel() } }
            do throws(Network.URLSessionError) { complete(.success(try await stack.fetch(resource: resource))) } catch {
                complete(.failure(error))
            }
        }
    }
}
