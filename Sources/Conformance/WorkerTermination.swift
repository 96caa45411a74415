import Foundation

/// How a worker process of the command line ended, and how a verdict says it.
enum WorkerTermination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signalled(Int32)

    /// Whether the worker ended as a worker should, having reported every case it was given.
    var isClean: Bool { self == .exited(0) }

    /// The reason a case that was running when the worker ended gets CRASH.
    var reason: String {
        switch self {
        case .exited(let status):
            return "the subject's process exited with status \(status) before the case finished"
        case .signalled(let signal):
            return "the subject's process died of signal \(signal) (\(Self.describe(signal: signal)))"
        }
    }

    /// The signal's name and, for those a Swift program dies of, what usually raises it.
    static func describe(signal: Int32) -> String {
        switch signal {
        case SIGILL: "SIGILL, a Swift trap"
        case SIGTRAP: "SIGTRAP, a Swift trap"
        case SIGABRT: "SIGABRT, an abort"
        case SIGSEGV: "SIGSEGV, a bad memory access"
        case SIGBUS: "SIGBUS, a bad memory access"
        case SIGFPE: "SIGFPE, an arithmetic fault"
        case SIGKILL: "SIGKILL, killed"
        case SIGPIPE: "SIGPIPE, a write to a closed pipe or socket"
        default: String(cString: strsignal(signal))
        }
    }
}
