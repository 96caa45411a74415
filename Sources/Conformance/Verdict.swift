/// The verdict on one case.
public enum Verdict: String, Sendable, Codable, Hashable, CaseIterable {
    /// The subject did what the spec says.
    case pass = "PASS"
    /// The subject did something else: see the expected and actual sides.
    case fail = "FAIL"
    /// The case needs a feature the subject declared unsupported.
    case skip = "SKIP"
    /// The harness itself failed (a fixture missing, a server that would not start): not the subject's fault.
    case error = "ERROR"
    /// The fetch never completed: the per-case watchdog fired.
    case hang = "HANG"
    /// Run more than once (`--repeat`), the case did not get the same verdict every time: neither a pass nor
    /// a failure can be trusted.
    case flaky = "FLAKY"
    /// The subject broke the process's contract rather than the spec's: it trapped or died of a signal while
    /// the case ran (the command line's worker process died, see ``ConformanceCommandLine``), or it completed
    /// a fetch twice, which would trap the `async` path.
    case crash = "CRASH"

    /// Whether this verdict on a MUST case fails the run: a MUST case that passes only sometimes, or crashes, fails it.
    public var failsRun: Bool { self == .fail || self == .error || self == .hang || self == .flaky || self == .crash }
}
