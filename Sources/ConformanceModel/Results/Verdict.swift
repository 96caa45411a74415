/// The verdict on one case: a stable name (``rawValue``, as reports spell it) with a constant for each verdict
/// the suite gives.
///
/// Later versions of the suite may add verdicts: a `switch` over verdicts needs a `default`, and a verdict this
/// version does not know, read from a later version's report, keeps its name and fails a run
/// (``failsRun``). ``known`` lists the verdicts this version gives.
public struct Verdict: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    /// The verdict's stable name (`PASS`, `FAIL`, …), encoded as a plain JSON string.
    public let rawValue: String

    /// The verdict with this name, known to this version or not.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The subject did what the spec says.
    public static let pass = Verdict(rawValue: "PASS")
    /// The subject did something else: see the expected and actual sides.
    public static let fail = Verdict(rawValue: "FAIL")
    /// The case needs a feature the subject declared unsupported.
    public static let skip = Verdict(rawValue: "SKIP")
    /// The harness itself failed (a fixture missing, a server that would not start): not the subject's fault.
    public static let error = Verdict(rawValue: "ERROR")
    /// The fetch never completed: the per-case watchdog fired.
    public static let hang = Verdict(rawValue: "HANG")
    /// Run more than once (`--repeat`), the case did not get the same verdict every time: neither a pass nor
    /// a failure can be trusted.
    public static let flaky = Verdict(rawValue: "FLAKY")
    /// The subject broke the process's contract rather than the spec's: it trapped or died of a signal while
    /// the case ran (the command line's worker process died, see `ConformanceCommandLine`), or it completed
    /// a fetch twice, which would trap the `async` path.
    public static let crash = Verdict(rawValue: "CRASH")

    /// The verdicts this version of the suite gives, in the order reports list them.
    public static let known: [Verdict] = [.pass, .fail, .skip, .error, .hang, .flaky, .crash]

    /// Whether this verdict on a MUST case fails the run: every verdict but PASS and SKIP, so a MUST case that
    /// passes only sometimes, crashes, or has a verdict this version does not know fails it.
    public var failsRun: Bool { self != .pass && self != .skip }

    /// The stable name.
    public var description: String { rawValue }
}
