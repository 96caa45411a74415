import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// ``CaseAction/releaseStackInFlight`` and ``CaseAction/releaseStackWhileRetryWaits(probePath:)``: one fetch, then,
/// once it is in flight or waiting for its retry, the runner drops its reference to the stack, the only one, and
/// waits for the fetch to complete all the same.
///
/// It is no ``CaseDriver``: it needs the runner's own reference, which a ``GuardedStack`` would keep alive.
struct StackReleaseDriver {
    /// `nil`: the stack goes away once the server has read the request. Otherwise the fetch's first attempt fails,
    /// and the stack goes away once a fetch of this path has completed beside it: the event that proves the first
    /// one's retry is waiting (as in ``RetryWaitCancelDriver``).
    var probePath: String?

    func drive<Stack: NetworkStack>(_ stack: inout Stack?, resource: Network.URLSessionResource, _ waits: CaseWaits) throws(CaseStop)
    where
        Stack.Resource == Network.URLSessionResource, Stack.Remote == Data, Stack.Response == URLResponse,
        Stack.FetchError == Network.URLSessionError
    {
        let recorders = waits.recorders
        let completions = recorders.completions
        let complete: @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void = {
            completions.complete(Outcome($0))
        }
        stack?.fetch(resource: resource, completion: completions.once(complete))
        if let probePath {
            try waits.failedAttempt()
            let probe = ResourceBuilder.resource(for: ResourceSpec().with { $0.target = .server(probePath) }, recorders: recorders)
            stack?.fetch(resource: probe, completion: completions.once { completions.completeOther(Outcome($0), path: probePath) })
            try waits.completion("the probe fetch while the retry waits")
        } else {
            try waits.request()
        }
        stack = nil  // the runner held the only reference: the stack goes away here
        try waits.completion("after releasing the stack")
        waits.graceWait()
    }
}
