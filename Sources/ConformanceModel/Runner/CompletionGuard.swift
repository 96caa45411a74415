import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Synchronization

/// Lets one completion of a fetch through and reports the others, so that a subject that completes a fetch
/// twice gets CRASH for its case (FETCH-1) instead of trapping the run: a second resume of the continuation behind
/// `fetch(resource:) async` is fatal, and one bad case must not cost every other case its verdict.
final class CompletionGuard<Value: Sendable>: Sendable {
    private let calls = Atomic<Int>(0)
    private let deliver: @Sendable (Value) -> Void
    private let extra: @Sendable (Int) -> Void

    /// - Parameters:
    ///   - deliver: receives the first completion.
    ///   - extra: told, for each later completion, how many completions there have been so far.
    init(deliver: @escaping @Sendable (Value) -> Void, extra: @escaping @Sendable (Int) -> Void) {
        self.deliver = deliver
        self.extra = extra
    }

    func callAsFunction(_ value: Value) {
        let call = calls.wrappingAdd(1, ordering: .acquiringAndReleasing).newValue
        if call == 1 {
            deliver(value)
        } else {
            extra(call)
        }
    }
}

/// A subject's stack seen through ``CompletionGuard``s: every fetch made through it, by completion, by
/// `fetchAndDecode` or by `async`, completes at most once.
///
/// It hides the subject's stack type, so that the drivers of case actions need not be generic. Its `Request` is
/// nominal: nothing the runner does with a stack involves the request type.
final class GuardedStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    private let fetchOnce: @Sendable (Resource, @escaping FetchCompletionClosure) -> Cancelable

    init<Wrapped: NetworkStack>(_ wrapped: Wrapped, completions: CompletionRecorder)
    where
        Wrapped.Resource == Network.URLSessionResource, Wrapped.Remote == Data, Wrapped.Response == URLResponse,
        Wrapped.FetchError == Network.URLSessionError
    {
        fetchOnce = { resource, completion in wrapped.fetch(resource: resource, completion: completions.once(completion)) }
    }

    @discardableResult
    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        fetchOnce(resource, completion)
    }
}
