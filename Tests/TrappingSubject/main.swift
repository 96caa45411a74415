import ArgumentParser
import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NetworkCore
import Reference
import ReferenceConformance

// A conformance command whose subject is the reference stack, except on the one case whose fetch ends with
// the status in $TRAPPING_SUBJECT_STATUS: there it traps ($TRAPPING_SUBJECT_MODE=trap, the default) or
// completes the fetch twice (=double) or never returns from tearDown (=stuck). With =always it traps on every
// fetch's completion, whatever the status. The crash-isolation tests run it as a third party's command would run:
// the five-line command of `ConformanceCommandLine.main(subject:)`, or, with $TRAPPING_SUBJECT_ENTRY=options, a
// command of its own that takes the status as an option of its own (`--trap-on-status`) beside ConformanceOptions.

/// The reference stack, misbehaving on one status.
final class TrappingStack: NetworkStack {
    typealias Resource = Network.URLSessionResource
    typealias Remote = Data
    typealias Request = URLRequest
    typealias Response = URLResponse
    typealias FetchError = Network.URLSessionError

    let wrapped: Network.URLSessionNetworkStack
    let status: Int?
    let mode: String?

    init(wrapping wrapped: Network.URLSessionNetworkStack, status: Int?, mode: String?) {
        self.wrapped = wrapped
        self.status = status
        self.mode = mode
    }

    func fetch(resource: Network.URLSessionResource, completion: @escaping FetchCompletionClosure) -> Cancelable {
        let (status, mode) = (self.status, self.mode)
        return wrapped.fetch(resource: resource) { result in
            if mode == "always" { fatalError("TrappingSubject: trapping on every fetch as asked") }
            guard case .failure(.http(let code, _, _)) = result, code.statusCode == status else { return completion(result) }
            if mode == "stuck" {
                Stuck.seen.withLock { $0 = true }
                return completion(result)
            }
            if mode != "double" { fatalError("TrappingSubject: trapping on status \(code.statusCode) as asked") }
            completion(result)
            completion(result)
        }
    }
}

struct TrappingSubject: ConformanceSubject {
    let reference = ReferenceSubject()
    var status = ProcessInfo.processInfo.environment["TRAPPING_SUBJECT_STATUS"].flatMap { Int($0) }
    var mode = ProcessInfo.processInfo.environment["TRAPPING_SUBJECT_MODE"]

    var name: String { "trapping" }

    func makeStack(for environment: StackEnvironment) throws -> TrappingStack {
        TrappingStack(wrapping: try reference.makeStack(for: environment), status: status, mode: mode)
    }

    func tearDown(_ stack: TrappingStack) {
        if Stuck.seen.withLock({ $0 }) { while true { sleep(60) } }
        reference.tearDown(stack.wrapped)
    }
}

/// Set once a stack has seen the status, in `stuck` mode: from then on this process's tearDowns never return.
enum Stuck {
    static let seen = Locked(false)
}

/// The command of its own: where the subject traps is an option, so every worker must parse it again to build
/// the same subject.
struct TrappingCommand: ParsableCommand {
    @Option(help: "The status on which the subject misbehaves.")
    var trapOnStatus: Int

    @OptionGroup var conformance: ConformanceOptions

    func run() throws {
        var subject = TrappingSubject()
        subject.status = trapOnStatus
        try conformance.run(subject: subject)
    }
}

if ProcessInfo.processInfo.environment["TRAPPING_SUBJECT_ENTRY"] == "options" {
    TrappingCommand.main()
} else {
    ConformanceCommandLine.main(subject: TrappingSubject())
}
