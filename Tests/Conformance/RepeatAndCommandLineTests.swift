import Conformance
import Foundation
import Reference
import Synchronization
import TestTraits
import Testing
import ReferenceConformance

/// A subject whose every second stack is refused: the same case is PASS on one run and SKIP on the next.
private final class AlternatingSubject: ConformanceSubject, Sendable {
    private let calls = Atomic<Int>(0)
    var name: String { "alternating" }
    var libraryVersions: [String: String] { ["example-lib": "1.2.3"] }

    func makeStack(for environment: StackEnvironment) throws -> Network.URLSessionNetworkStack {
        if calls.wrappingAdd(1, ordering: .relaxed).oldValue % 2 == 1 { throw SubjectUnsupported("every second stack") }
        return try ReferenceSubject().makeStack(for: environment)
    }

    func tearDown(_ stack: Network.URLSessionNetworkStack) { stack.finishFetchesAndInvalidateSession() }
}

@Suite("Repeated runs and the command line for any subject", .scaledTimeLimit(minutes: 1), .blocking)
struct RepeatAndCommandLineTests {

    @Test("a case whose verdicts differ across repeats is FLAKY in every report format")
    func flakyInEveryFormat() throws {
        let runner = try ConformanceRunner(subject: AlternatingSubject(), concurrency: 1)
        let report = runner.run(Catalogue.filter(Catalogue.all, glob: "body.success.text"), repeats: 2)
        let result = try #require(report.cases.first)
        #expect(report.cases.count == 1)
        #expect(result.verdict == .flaky)
        #expect(result.repeatVerdicts == [.pass, .skip])
        #expect(report.summary.flaky == 1)
        #expect(!report.passed)
        #expect(TextReport.render(report).contains("FLAKY [MUST] body.success.text"))
        #expect(MarkdownReport.render(report).contains("— FLAKY (MUST)"))
        #expect(JUnitReport.render(report).contains(#"type="FLAKY""#))
        let json = String(decoding: try JSONReport.encode(report), as: UTF8.self)
        #expect(json.contains(#""verdict" : "FLAKY""#))
        #expect(try JSONReport.decode(Data(json.utf8)).cases.first?.repeatVerdicts == [.pass, .skip])
        #expect(json.contains(#""example-lib" : "1.2.3""#))
    }

    @Test("a case with the same verdict on every repeat keeps it")
    func stableRepeats() throws {
        let report = try ConformanceRunner(subject: ReferenceSubject()).run(
            Catalogue.filter(Catalogue.all, glob: "body.success.text,error.http.status-404"), repeats: 3)
        #expect(report.cases.map(\.verdict) == [.pass, .pass])
        #expect(report.cases.allSatisfy { $0.repeatVerdicts == [.pass, .pass, .pass] })
        #expect(report.summary.flaky == 0)
    }

    @Test("the command line runs any subject with the options of conformance")
    func commandLine() throws {
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        let subjects: [(String, any ConformanceSubject)] = [("mine", ReferenceSubject())]
        let status = ConformanceCommandLine.run(
            arguments: [
                "run", "--filter", "body.success.text,body.success.tls", "--format=json", "--output", output, "--quiet", "--repeat", "2",
            ],
            subjects: subjects)
        #expect(status == 0)
        let report = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: output)))
        #expect(report.cases.map(\.id) == ["body.success.text", "body.success.tls"])
        #expect(ConformanceCommandLine.run(arguments: ["compare", output, output], subjects: subjects) == 0)
        #expect(ConformanceCommandLine.run(arguments: ["--filtre", "x"], subjects: subjects) == 64)
        #expect(ConformanceCommandLine.run(arguments: ["--subject", "theirs"], subjects: subjects) == 64)
        #expect(ConformanceCommandLine.run(arguments: ["--repeat", "0"], subjects: subjects) == 64)
    }

    @Test("a failed SHOULD case leaves the exit status at 0, unless --fail-on should")
    func failOnShould() throws {
        // The alternating subject makes this SHOULD case PASS on one run and SKIP on the other: FLAKY, a failure.
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: output) }
        func run(_ extra: [String]) -> Int32 {
            ConformanceCommandLine.run(
                arguments: [
                    "--filter", "transport.extra-bytes-after-body", "--repeat", "2", "--quiet", "--format", "json", "--output", output,
                ]
                    + extra,
                subjects: [("alternating", AlternatingSubject())])
        }
        #expect(run([]) == 0)
        #expect(try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: output))).cases.map(\.verdict) == [.flaky])
        #expect(run(["--fail-on", "must"]) == 0)
        #expect(run(["--fail-on", "should"]) == 1)
        #expect(run(["--fail-on=should"]) == 1)
        #expect(run(["--fail-on", "sometimes"]) == 64)
    }

    @Test("--list shows the features each case requires")
    func listShowsFeatures() throws {
        let cases = Catalogue.filter(Catalogue.all, glob: "body.success.text,trust.handler.reused-connection-rechecked")
        let lines = CaseList.render(cases).split(separator: "\n").map { $0.split(separator: "\t", omittingEmptySubsequences: false) }
        #expect(lines.count == 2)
        let plain = try #require(lines.first { $0.first == "body.success.text" })
        #expect(plain.count == 5 && plain[3] == "-")
        let recheck = try #require(lines.first { $0.first == "trust.handler.reused-connection-rechecked" })
        #expect(recheck.count == 5 && recheck[3].split(separator: ",").contains("reused-connection-recheck"))
    }
}
