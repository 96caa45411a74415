import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// ``CaseAction/hosts(_:)``: the case's resource under each host name in turn, one after the other on the same
/// stack; the outcome is the last one's, the others are recorded under their host names.
struct HostsFetchDriver: CaseDriver {
    let hosts: [String]

    func drive(_ fetches: CaseFetches, _ waits: CaseWaits) throws(CaseStop) {
        let recorders = fetches.recorders
        for (index, host) in hosts.enumerated() {
            var request = ResourceBuilder.request(for: fetches.spec, recorders: recorders)
            request.url = recorders.hostURL(host, request.url?.path ?? "/")
            let resource = ResourceBuilder.resource(for: fetches.spec, recorders: recorders, request: request)
            fetches.stack.fetch(
                resource: resource, completion: index == hosts.count - 1 ? fetches.complete : fetches.completeOther(path: host))
            try waits.completion("the fetch of \(host), \(index + 1) of \(hosts.count)")
        }
    }
}
