@testable import Conformance
import Foundation
import Reference
import Synchronization
import TestTraits
import Testing
import ReferenceConformance

/// The reference stack, counting the stacks it makes: a command that must run nothing must make none.
private final class CountingSubject: ConformanceSubject, Sendable {
    private let made = Atomic<Int>(0)
    var name: String { "counting" }
    var stacks: Int { made.load(ordering: .relaxed) }

    func makeStack(for environment: StackEnvironment) throws -> Network.URLSessionNetworkStack {
        made.add(1, ordering: .relaxed)
        return try ReferenceSubject().makeStack(for: environment)
    }

    func tearDown(_ stack: Network.URLSessionNetworkStack) { stack.finishFetchesAndInvalidateSession() }
}

private func temporaryPath(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("command-line-\(UUID().uuidString)-\(name)").path
}

private let spec = BuiltExecutable.packageRoot.appendingPathComponent("docs/spec").path

/// Runs the command in this process, the cases too, against a counting subject.
private func run(_ arguments: [String], subject: CountingSubject = CountingSubject()) -> Int32 {
    ConformanceCommandLine.run(arguments: arguments, subjects: [("counting", subject)])
}

@Suite("The command line: options, subcommands, statuses and messages", .scaledTimeLimit(minutes: 2), .blocking)
struct CommandLineTests {

    // MARK: Values are checked before anything runs

    @Test("a watchdog of 0 seconds or less is a usage error, and no case runs")
    func watchdogMustBePositive() {
        let subject = CountingSubject()
        #expect(run(["--watchdog", "-1", "--filter", "body.success.text", "--quiet"], subject: subject) == 64)
        #expect(run(["--watchdog=0", "--filter", "body.success.text", "--quiet"], subject: subject) == 64)
        #expect(subject.stacks == 0)
    }

    @Test("--jobs below 1 is a usage error, and no case runs")
    func jobsMustBePositive() {
        let subject = CountingSubject()
        #expect(run(["--jobs", "0", "--filter", "body.success.text", "--quiet"], subject: subject) == 64)
        #expect(subject.stacks == 0)
    }

    @Test("an option spelt with one dash or three is refused, not taken for --list")
    func oddDashesAreRefused() {
        #expect(run(["-list"]) == 64)
        #expect(run(["---list"]) == 64)
    }

    @Test("--output into a folder that does not exist fails at once with 73, and no case runs")
    func outputFolderCheckedBeforeTheRun() {
        let subject = CountingSubject()
        let output = temporaryPath("missing") + "/report.json"
        #expect(run(["--filter", "body.success.text", "--quiet", "--output", output], subject: subject) == 73)
        #expect(subject.stacks == 0)
        #expect(!FileManager.default.fileExists(atPath: output))
    }

    // MARK: Spellings

    @Test("-j is short for --jobs")
    func shortJobs() throws {
        #expect(try ConformanceOptions.parse(["-j", "4"]).jobs == 4)
        let output = temporaryPath("short-jobs.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        #expect(run(["-j", "4", "--filter", "body.success.text", "--quiet", "--format", "json", "--output", output]) == 0)
        #expect(try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: output))).cases.map(\.id) == ["body.success.text"])
    }

    @Test("each --filter adds to the ones before it, and each may be a comma list")
    func filtersAddUp() throws {
        #expect(
            try ConformanceOptions.parse(["--filter", "a.*", "--filter", "b,c", "--rule", "PIN-7", "--rule", "ERR-1"]).filter == [
                "a.*", "b,c",
            ])
        let output = temporaryPath("filters.json")
        defer { try? FileManager.default.removeItem(atPath: output) }
        let status = run([
            "--filter", "body.success.text", "--filter", "error.http.status-404,error.http.status-403", "--quiet", "--format", "json",
            "--output", output,
        ])
        #expect(status == 0)
        let ids = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: output))).cases.map(\.id)
        #expect(Set(ids) == ["body.success.text", "error.http.status-404", "error.http.status-403"])
    }

    @Test("--output through a symbolic link writes the file it points to and keeps the link")
    func outputThroughALink() throws {
        let folder = temporaryPath("link")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data("old".utf8).write(to: URL(fileURLWithPath: folder + "/target.md"))
        try FileManager.default.createSymbolicLink(atPath: folder + "/link.md", withDestinationPath: folder + "/target.md")
        #expect(run(["coverage", "--spec", spec, "--output", folder + "/link.md"]) == 0)
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: folder + "/link.md") == folder + "/target.md")
        #expect(try String(contentsOfFile: folder + "/target.md", encoding: .utf8).hasPrefix("# "))
    }

    // MARK: convert

    @Test("convert writes a run's JSON report as the Markdown the run would have written")
    func convertToMarkdown() throws {
        let folder = temporaryPath("convert")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "/run.json"
        #expect(run(["--filter", "error.http.status-404", "--format", "json", "--output", json, "--quiet"]) == 0)
        #expect(run(["convert", "--format", "markdown", "--output", folder + "/run.md", json]) == 0)
        let markdown = try String(contentsOfFile: folder + "/run.md", encoding: .utf8)
        let report = try JSONReport.decode(Data(contentsOf: URL(fileURLWithPath: json)))
        #expect(markdown == MarkdownReport.render(report))
        #expect(markdown.contains("| `error.http.status-404` | MUST | PASS |"))
    }

    @Test("a report of schema 2, which named the harness's libcurl, is still read, and its libcurl still shown")
    func schemaTwoReportIsRead() throws {
        let folder = temporaryPath("schema-2")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let json = folder + "/run.json"
        #expect(run(["--filter", "error.http.status-404", "--format", "json", "--output", json, "--quiet"]) == 0)
        var object = try #require(JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: json))) as? [String: Any])
        var environment = try #require(object["environment"] as? [String: Any])
        #expect(environment["libcurl"] == nil, "a schema 3 report names no harness libcurl: the harness links none")
        environment["libcurl"] = "libcurl/7.88.1 OpenSSL/3.0.19"
        object["environment"] = environment
        object["schemaVersion"] = "2.4.0"
        try JSONSerialization.data(withJSONObject: object).write(to: URL(fileURLWithPath: json))
        #expect(run(["convert", "--format", "markdown", "--output", folder + "/run.md", json]) == 0)
        let markdown = try String(contentsOfFile: folder + "/run.md", encoding: .utf8)
        #expect(markdown.contains("| harness libcurl | libcurl/7.88.1 OpenSSL/3.0.19 |"))
    }

    @Test("convert refuses a file that is not a report with 65 and a missing one with 66, and writes nothing")
    func convertRefusesWhatIsNotAReport() throws {
        let folder = temporaryPath("convert-bad")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data(#"{"hello": 1}"#.utf8).write(to: URL(fileURLWithPath: folder + "/not-a-report.json"))
        #expect(run(["convert", "--format", "junit", "--output", folder + "/out.xml", folder + "/not-a-report.json"]) == 65)
        #expect(run(["convert", "--format", "junit", "--output", folder + "/out.xml", folder + "/missing.json"]) == 66)
        #expect(!FileManager.default.fileExists(atPath: folder + "/out.xml"))
    }

    @Test("a write that fails is an I/O error (74) in one line, naming the file and the reason")
    func failedWriteIsOneLine() {
        // /dev/full takes no byte: every write fails with ENOSPC.
        #expect {
            try OutputFile(checking: "/dev/full").write("report")
        } throws: { error in
            let failure = error as? CommandFailure
            return failure?.status == .io && failure?.message == "cannot write /dev/full: No space left on device"
        }
    }

    // MARK: The built command

    @Test("--version prints the package's release, the suite's version and the report schema's on one line")
    func version() throws {
        let outcome = try BuiltExecutable("conformance").run(["--version"])
        #expect(outcome.status == 0)
        #expect(
            outcome.output == "PinnedNetwork \(PinnedNetworkVersion.package), conformance suite \(SuiteReport.suiteVersion), "
                + "report schema \(SuiteReport.schemaVersion)\n")
    }

    @Test("version says what each version is the version of, and a -dev build which release it follows")
    func versionExplained() throws {
        let outcome = try BuiltExecutable("conformance").run(["version"])
        #expect(outcome.status == 0)
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(lines.count == 3)
        #expect(
            lines.first
                == "PinnedNetwork 0.9.0-dev: the package (its libraries and commands); a build of changes made after release 0.8.0, to be released as 0.9.0"
        )
        #expect(lines.dropFirst().first?.hasPrefix("conformance suite \(SuiteReport.suiteVersion): the catalogue of cases") == true)
        #expect(lines.last == "report schema \(SuiteReport.schemaVersion): the JSON report's format; within 3.x fields are only added")
    }

    @Test("the last release is the CHANGELOG's newest dated section, and the README's dependency line names it")
    func releaseStory() throws {
        let root = BuiltExecutable.packageRoot
        let changelog = try String(contentsOf: root.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let dated = changelog.split(separator: "\n").first { $0.hasPrefix("## ") && $0.contains("(20") }
        #expect(dated?.hasPrefix("## \(PinnedNetworkVersion.lastRelease) (") == true)
        let next = PinnedNetworkVersion.package.replacingOccurrences(of: "-dev", with: "")
        #expect(changelog.contains("## Unreleased: \(next)\n"))
        let readme = try String(contentsOf: root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains(#"from: "\#(PinnedNetworkVersion.lastRelease)")"#))
    }

    @Test("each subcommand has its own help")
    func helpPerSubcommand() throws {
        let conformance = try BuiltExecutable("conformance")
        let run = try conformance.run(["run", "--help"])
        #expect(run.status == 0)
        #expect(run.output.contains("USAGE: conformance run"))
        #expect(run.output.contains("-j, --jobs <n>"))
        let report = try conformance.run(["report", "--help"])
        #expect(report.status == 0)
        #expect(report.output.contains("--allow-mixed"))
        #expect(!report.output.contains("--watchdog"))
        #expect(try conformance.run(["help", "list"]).output.contains("USAGE: conformance list"))
    }

    @Test("list prints each case's ID, level, rules, required features and title, as JSON or text")
    func list() throws {
        let conformance = try BuiltExecutable("conformance")
        let outcome = try conformance.run(["list", "--format", "json", "--filter", "body.success.tls"])
        #expect(outcome.status == 0)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(listing["suiteVersion"] as? String == SuiteReport.suiteVersion)
        let cases = try #require(listing["cases"] as? [[String: Any]])
        #expect(cases.count == 1)
        #expect(cases.first?["id"] as? String == "body.success.tls")
        #expect(cases.first?["level"] as? String == "MUST")
        #expect(cases.first?["rules"] as? [String] == ["FETCH-6", "TRUST-1"])
        #expect(cases.first?["requiredFeatures"] as? [String] == ["custom-trust-roots"])
        #expect(cases.first?["title"] as? String == "a 200 over TLS to a valid chain succeeds")
        let text = try conformance.run(["list", "--filter", "body.success.tls"])
        #expect(text.output == "body.success.tls\tMUST\tFETCH-6,TRUST-1\tcustom-trust-roots\ta 200 over TLS to a valid chain succeeds\n")
        #expect(text.errors == "1 cases\n", "the count goes to standard error: every line of standard output is a case")
        #expect(try conformance.run(["--list", "--filter", "body.success.tls"]).output == text.output, "the old spelling still lists")
    }

    @Test("a missing input is one line naming the file, without Foundation's error dump")
    func missingInputIsOneLine() throws {
        let conformance = try BuiltExecutable("conformance")
        let missing = try conformance.run(["compare", "/nonexistent/before.json", "/nonexistent/after.json"])
        #expect(missing.status == 66)
        #expect(missing.errors == "Error: no such report: /nonexistent/before.json\n")
        let folder = try conformance.run(["compare", "/tmp", "/tmp"])
        #expect(folder.status == 66)
        #expect(folder.errors.split(separator: "\n").count == 1)
        #expect(folder.errors.contains("/tmp"))
        #expect(!folder.errors.contains("NSCocoaErrorDomain"))
    }

    @Test("the completion script knows the subcommands and their options")
    func completionScript() throws {
        let outcome = try BuiltExecutable("conformance").run(["--generate-completion-script", "bash"])
        #expect(outcome.status == 0)
        for word in ["compare", "coverage", "report", "--watchdog", "--allow-mixed", "'reference'$'\\n''foundation'"] {
            #expect(outcome.output.contains(word), "\(word)")
        }
    }

    // MARK: Soak

    @Test("soak refuses a misspelt option with 64 before any fetch, and answers --help")
    func soak() throws {
        let command = try BuiltExecutable("conformance")
        let misspelt = try command.run(["soak", "--fetchs", "10"], limit: 30)
        #expect(misspelt.status == 64)
        #expect(misspelt.errors.hasPrefix("Error: Unknown option '--fetchs'. Did you mean '--fetches'?"))
        #expect(misspelt.output.isEmpty)
        let help = try command.run(["soak", "--help"], limit: 30)
        #expect(help.status == 0)
        #expect(help.output.contains("--heap-bound-mib"))
        #expect(help.output.contains("--subject"))
    }

    @Test("soak soaks the subject it is given, and passes a short run of the reference stack")
    func soakRunsTheChosenSubject() throws {
        let outcome = try BuiltExecutable("conformance").run(["soak", "--subject", "reference", "--fetches", "400"], limit: 120)
        #expect(outcome.status == 0, "\(outcome.output)\(outcome.errors)")
        #expect(outcome.output.contains("soak: reference: 400 fetches"))
        #expect(outcome.output.contains("400 completed, 0 lost, 0 double"))
        #expect(outcome.output.hasSuffix("soak: PASS\n"))
    }

    @Test("soak called as a library, not from its own executable, is a usage error: its servers need a child process")
    func soakNeedsItsOwnExecutable() {
        #expect(run(["soak", "--fetches", "10"]) == 64)
    }
}
