import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore

/// What a ``CaseDriver`` fetches with: the subject's stack behind the completion guard, the case's resource, and
/// the completions that record each fetch's outcome.
struct CaseFetches {
    let stack: GuardedStack
    /// The case's resource.
    let resource: Network.URLSessionResource
    /// The case's resource description, for fetches of it at other paths or hosts.
    let spec: ResourceSpec
    let recorders: CaseRecorders

    /// Records the outcome of the case's own fetch.
    var complete: @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void {
        { [completions = recorders.completions] in completions.complete(Outcome($0)) }
    }

    /// Records the outcome of a fetch besides the case's own, under `path` (a path, or a host name).
    func completeOther(path: String) -> @Sendable (Result<Network.Value<Data, URLResponse>, Network.URLSessionError>) -> Void {
        { [completions = recorders.completions] in completions.completeOther(Outcome($0), path: path) }
    }

    /// The case's resource at another path of the server.
    func resource(at path: String) -> Network.URLSessionResource {
        ResourceBuilder.resource(for: spec.with { $0.target = .server(path) }, recorders: recorders)
    }
}
