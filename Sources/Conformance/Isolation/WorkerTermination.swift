import ConformanceModel
import Foundation

/// How a worker process of the command line ended, and how a verdict says it.
enum WorkerTermination: Sendable, Equatable {
    /// It exited with this status.
    case exited(Int32)
    /// A signal killed it.
    case signalled(Int32)
    /// The parent killed it after it said nothing for this many seconds: stuck, not crashed.
    case stalled(Int)

    /// Whether the worker ended as a worker should, having reported every case it was given.
    var isClean: Bool { self == .exited(0) }

    /// How the worker ended: "died of signal 4 (SIGILL, a Swift trap)".
    var description: String {
        switch self {
        case .exited(let status): "exited with status \(status)"
        case .signalled(let signal): "died of signal \(signal) (\(Self.describe(signal: signal)))"
        case .stalled(let seconds): "was stopped after \(seconds) s without progress"
        }
    }

    /// The verdict of a case that was running when the worker ended: HANG when the worker was stuck, CRASH
    /// otherwise.
    var verdict: Verdict {
        if case .stalled = self { .hang } else { .crash }
    }

    /// Why a case that was running when the worker ended gets ``verdict``, quoting the last lines the worker wrote
    /// on standard error (a trap's message), if it wrote any.
    func reason(lastErrorLines: [String] = []) -> String {
        let ended =
            switch self {
            case .exited: "the subject's process \(description) before the case finished"
            case .signalled, .stalled: "the subject's process \(description)"
            }
        guard !lastErrorLines.isEmpty else { return ended }
        return ended + "; its last words on stderr: " + lastErrorLines.joined(separator: " | ")
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
