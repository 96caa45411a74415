import ConformanceModel

/// How the terminal shows a verdict: coloured with ANSI's codes when colour is on, plain otherwise.
public struct TerminalStyle: Sendable, Hashable {
    /// Whether colour is on.
    public var colored: Bool

    /// Plain text.
    public static let plain = TerminalStyle(colored: false)

    /// A style.
    public init(colored: Bool) { self.colored = colored }

    /// `text` in the colour of `verdict`: green for PASS, red for a failure, yellow for HANG and FLAKY, dim for SKIP.
    public func paint(_ text: String, as verdict: Verdict) -> String {
        guard colored else { return text }
        let code =
            switch verdict {
            case .pass: "32"
            case .fail: "31"
            case .skip: "2"
            case .error: "35"
            case .hang, .flaky: "33"
            default: "1;31"  // CRASH, and a verdict this version does not know: failing closed
            }
        return "\u{1B}[\(code)m\(text)\u{1B}[0m"
    }
}
