@testable import Conformance
import Foundation
import NetworkCore
import TestTraits
import Testing

/// What the terminal shows: colour only where asked, one line of progress, one closing line.
// Blocking: a test runs the built command on a pseudo-terminal and waits for it.
@Suite("The terminal's conventions", .scaledTimeLimit(minutes: 2), .blocking)
struct TerminalTests {

    private func result(_ id: String, _ verdict: Verdict, reason: String? = nil) -> CaseResult {
        CaseResult(
            id: id, title: id, rules: ["FETCH-1"], level: .must, verdict: verdict, reason: reason, mismatches: [],
            expected: .init(outcome: Outcome(kind: .success), journal: .any, checks: []), actual: Outcome(kind: .success),
            completions: 1, journal: [], durationMilliseconds: 1)
    }

    private var report: SuiteReport {
        SuiteReport(
            subject: .init(name: "s", summary: "s", unsupportedFeatures: [:]), startedAt: Date(), durationSeconds: 1,
            cases: [
                result("a.pass", .pass), result("a.fail", .fail, reason: "because"), result("a.hang", .hang, reason: "stuck"),
                result("a.skip", .skip, reason: "the subject declared http2 unsupported: no nghttp2"),
            ])
    }

    @Test("the text report ends on one line of counts that add up to the total")
    func oneClosingLine() {
        let lines = TextReport.render(report).split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.suffix(2) == ["4 cases: 1 passed, 1 failed, 1 skipped, 0 errors, 1 hang (2 MUST failures) in 1.0 s", ""])
        #expect(!lines.contains { $0.hasPrefix("1 passed") }, "no second closing line that counts another way")
    }

    @Test("skips are counted, and listed with their reasons on request")
    func skipReasonsOnRequest() {
        #expect(TextReport.render(report).contains("1 skipped (--show-skips lists them with their reasons)"))
        #expect(TextReport.render(report, showSkips: true).contains("SKIP a.skip: the subject declared http2 unsupported: no nghttp2\n"))
    }

    @Test("verdicts are coloured only when the style says so")
    func colourOnlyWhenAsked() {
        #expect(!TextReport.render(report).contains("\u{1B}["))
        let coloured = TextReport.render(report, style: TerminalStyle(colored: true))
        #expect(coloured.contains("\u{1B}[31mFAIL\u{1B}[0m [MUST] a.fail"))
        #expect(coloured.contains("\u{1B}[33mHANG\u{1B}[0m [MUST] a.hang"))
        #expect(
            TextReport.progressLine(result("a.pass", .pass), done: 1, total: 9, style: TerminalStyle(colored: true)).contains(
                "\u{1B}[32mPASS "))
    }

    @Test("a reason with a terminal escape, control characters or 100 KiB is shown escaped and bounded, in text and Markdown")
    func hostileReasonEscaped() {
        let hostile = "\u{1B}]0;owned\u{7}\u{1B}[2J" + String(repeating: "x", count: 100 * 1024) + "\r\nFAKE PASS"
        var report = self.report
        report.cases[1].reason = hostile
        report.cases[1].mismatches = [hostile]
        for text in [TextReport.render(report), MarkdownReport.render(report), TextReport.progressLine(report.cases[1], done: 1, total: 1)]
        {
            #expect(!text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{7}" || $0 == "\r" })
            #expect(text.contains("\\u{1b}]0;owned\\u{7}\\u{1b}[2J"))
            #expect(text.count < 20_000)
            #expect(!text.contains("FAKE PASS"))
        }
    }

    @Test("a 100 KiB reason is cut to a few hundred characters in the HTML and JUnit reports too, which escape it")
    func hostileReasonBoundedInHTMLAndJUnit() {
        var report = self.report
        report.cases[1].reason = "<b>" + String(repeating: "x", count: 100 * 1024)
        report.cases[1].mismatches = [String(repeating: "y", count: 100 * 1024)]
        let html = HTMLReport(reports: [report], rules: [], explanations: [:], specLink: "../spec/").render()
        let junit = JUnitReport.render(report)
        for text in [html, junit] {
            #expect(text.count < 40_000)
            #expect(text.contains("… (101803 more characters)"), "the reason")
            #expect(text.contains("… (101800 more characters)"), "the mismatch")
            #expect(!text.contains("<b>x"))
        }
    }

    @Test("auto colours a terminal unless NO_COLOR is set; always and never do as they say")
    func colorChoice() {
        let pipe = Pipe()
        let notATerminal = pipe.fileHandleForWriting.fileDescriptor
        #expect(!ColorChoice.auto.colors(descriptor: notATerminal, environment: [:]))
        #expect(ColorChoice.always.colors(descriptor: notATerminal, environment: ["NO_COLOR": "1"]))
        #expect(!ColorChoice.never.colors(descriptor: notATerminal, environment: [:]))
    }

    /// Runs the built `conformance` on a pseudo-terminal (util-linux's `script`), as a person at a terminal would;
    /// `NO_COLOR` is unset (empty) unless `environment` sets it.
    private func onTerminal(_ arguments: String, environment: [String: String] = [:]) throws -> String {
        let conformance = try BuiltExecutable("conformance").url.path
        let script = BuiltExecutable(at: URL(fileURLWithPath: "/usr/bin/script"))
        let merged = ["NO_COLOR": ""].merging(environment) { _, given in given }
        return try script.run(["-qec", "\(conformance) \(arguments)", "/dev/null"], environment: merged, limit: 60).output
    }

    @Test("on a terminal: colour unless NO_COLOR, one progress line rewritten in place, no line per case unless --verbose")
    func onATerminal() throws {
        let run = try onTerminal("--filter 'retry.max-retries.*'")
        #expect(run.contains("\u{1B}[32m"), "colour on a terminal")
        #expect(run.contains("\r\u{1B}[K"), "a progress line rewritten in place")
        #expect(!run.contains("PASS  retry.max-retries"), "no line per case")
        let plain = try onTerminal("--filter 'retry.max-retries.*'", environment: ["NO_COLOR": "1"])
        #expect(!plain.contains("\u{1B}[3"), "NO_COLOR turns colour off")
        let verbose = try onTerminal("--filter 'retry.max-retries.*' --verbose --color never")
        #expect(verbose.contains("PASS  retry.max-retries"), "--verbose prints a line per case")
        #expect(!verbose.contains("\u{1B}["))
    }

    @Test("the live progress line is rewritten in place at most every 100 ms, with counts and the time left, and cleared")
    func liveProgress() {
        let written = Locked<[String]>([])
        let start = ContinuousClock.now
        let progress = LiveProgress(total: 4, style: .plain, started: start) { text in written.withLock { $0.append(text) } }
        progress.record(.pass, now: start + .seconds(1))
        progress.record(.fail, now: start + .milliseconds(1050))  // too soon: not drawn
        progress.record(.skip, now: start + .seconds(3))
        progress.record(.pass, now: start + .seconds(4))  // the last: the run's end clears the line
        progress.clear()
        #expect(
            written.withLock { $0 } == [
                "\r\u{1B}[K[1/4] 1 passed · 1 s, about 3 s left",
                "\r\u{1B}[K[3/4] 1 passed, 1 not passed, 1 skipped · 3 s, about 1 s left",
                "\r\u{1B}[K",
            ])
    }
}
