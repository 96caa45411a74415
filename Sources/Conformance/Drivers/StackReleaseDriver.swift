import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// ``CaseAction/releaseStackInFlight``: one fetch, then, once the server has read its request, the runner drops
/// its reference to the stack, the only one, and waits for the fetch to complete all the same.
///
/// It is no ``CaseDriver``: it needs the runner's own reference, which a ``GuardedStack`` would keep alive.
enum StackReleaseDriver {
    static func drive<Stack: NetworkStack>(_ stack: inout Stack?, resource: Network.URLSessionResource, _ waits: CaseWaits) throws(CaseStop)
    where
        Stack.Resource == Network.URLSessionResource, Stack.Remote == Data, Stack.Response == URLResponse,
        Stack.FetchError == Network.URLSessionError
    {
        let context = waits.context
        let complete: @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void = {
            context.complete(Outcome($0))
        }
        stack?.fetch(resource: resource, completion: context.once(complete))
        try waits.request()
        stack = nil  // the runner held the only reference: the stack goes away here
        try waits.completion("after releasing the stack")
        waits.graceWait()
    }
}
