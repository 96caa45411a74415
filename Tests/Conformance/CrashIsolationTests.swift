import Foundation
import TestTraits
import Testing

/// Runs `TrappingSubject` (a third party's five-line command on a subject that misbehaves on the case that
/// ends with status 404) in a child process, as a user would, and reads its JSON report.
///
/// The report is read with `JSONSerialization`, not `JSONReport`, so that these tests say the same thing of
/// any version of the suite.
private enum TrappingCommand {
    static let cases = "body.success.text,error.http.status-403,error.http.status-404,error.http.status-409"

    /// Runs the command with `mode` on the cases and returns its exit status and the report's cases by ID.
    /// With `ownOption`, the command of its own that takes the status as `--trap-on-status` beside `ConformanceOptions`.
    static func run(
        mode: String, ownOption: Bool = false
    ) throws -> (status: Int32, verdicts: [String: String], reasons: [String: String], total: Int) {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("trapping-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        let where404 = ownOption ? ["--trap-on-status", "404"] : []
        let environment = ownOption ? ["TRAPPING_SUBJECT_ENTRY": "options"] : ["TRAPPING_SUBJECT_STATUS": "404"]
        let run = try BuiltExecutable("TrappingSubject").run(
            where404 + ["--filter", cases, "--format", "json", "--output", output.path, "--quiet", "--watchdog", "5"],
            environment: environment.merging(["TRAPPING_SUBJECT_MODE": mode]) { first, _ in first })
        let data = try Data(contentsOf: output)
        let report = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let results = try #require(report["cases"] as? [[String: Any]])
        var verdicts: [String: String] = [:]
        var reasons: [String: String] = [:]
        for result in results {
            let id = try #require(result["id"] as? String)
            verdicts[id] = result["verdict"] as? String
            reasons[id] = result["reason"] as? String
        }
        return (run.status ?? -1, verdicts, reasons, results.count)
    }
}

@Suite("A subject that crashes in one case gets a complete report with one CRASH", .scaledTimeLimit(minutes: 2), .blocking)
struct CrashIsolationTests {
    /// The four cases run, the subject misbehaving only where a fetch ends with 404.
    private static let oneCrash = [
        "body.success.text": "PASS", "error.http.status-403": "PASS", "error.http.status-404": "CRASH", "error.http.status-409": "PASS",
    ]

    @Test("a subject that traps in one case gets CRASH for it, naming the signal, and every other case its verdict")
    func trapIsOneCrash() throws {
        let run = try TrappingCommand.run(mode: "trap")
        #expect(run.total == 4)
        #expect(run.verdicts == Self.oneCrash)
        let reason = run.reasons["error.http.status-404"] ?? ""
        #expect(reason.contains("signal \(SIGILL) (SIGILL") || reason.contains("signal \(SIGTRAP) (SIGTRAP"), "\(reason)")
        #expect(reason.contains("its last words on stderr: "), "\(reason)")
        #expect(reason.contains("Fatal error: TrappingSubject: trapping on status 404 as asked"), "the trap's message is kept: \(reason)")
        #expect(run.status == 1)
    }

    @Test("a command of one's own, whose own option says where the subject traps, gets CRASH there: every worker parses it again")
    func ownOptionReachesTheWorkers() throws {
        let run = try TrappingCommand.run(mode: "trap", ownOption: true)
        #expect(run.total == 4)
        #expect(run.verdicts == Self.oneCrash)
        #expect(run.status == 1)
    }

    @Test("a subject that completes a fetch twice gets CRASH for that case, completed twice, and every other case its verdict")
    func doubleCompletionIsOneCrash() throws {
        let run = try TrappingCommand.run(mode: "double")
        #expect(run.total == 4)
        #expect(run.verdicts == Self.oneCrash)
        #expect(run.reasons["error.http.status-404"]?.contains("completed twice") == true, "\(run.reasons)")
        #expect(run.status == 1)
    }
}
