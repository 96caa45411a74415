@testable import Conformance
import Foundation
import Reference
import TestTraits
import Testing
import ReferenceConformance

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
private let spec = repository.appendingPathComponent("docs/spec").path
private let subjects: [(String, any ConformanceSubject)] = [("reference", ReferenceSubject())]

@Suite("The HTML report: escaping, content and the report command's errors", .scaledTimeLimit(minutes: 2), .blocking)
struct HTMLReportTests {

    @Test("HTML escaping replaces the five characters that could open a tag or close an attribute")
    func escaping() {
        #expect(
            HTMLEscaping.escape(#"<script>alert('x') & "y"</script>"#)
                == "&lt;script&gt;alert(&#39;x&#39;) &amp; &quot;y&quot;&lt;/script&gt;")
        #expect(HTMLEscaping.escape("plain text, é ✓") == "plain text, é ✓")
    }

    @Test("a <script> in a case's reason, a journal or a subject's summary reaches the page as text, never as a tag")
    func hostileTextIsEscaped() async throws {
        let reference = try await ReferenceRun.report.value
        let rules = try RuleBook.load(directory: URL(fileURLWithPath: spec))
        let page = HTMLReport(
            reports: [reference, DerivedReport.make(from: reference)], rules: rules, explanations: [:], specLink: "../spec/"
        ).render()
        #expect(page.components(separatedBy: "<script").count == 2, "only the page's own script")
        #expect(!page.contains(DerivedReport.injected))
        #expect(page.contains(HTMLEscaping.escape(DerivedReport.injected)))
    }

    @Test("the page has a cell per case and subject, the rules' full text with links, and each subject's libraries")
    func pageContent() async throws {
        let reference = try await ReferenceRun.report.value
        let rules = try RuleBook.load(directory: URL(fileURLWithPath: spec))
        let derived = DerivedReport.make(from: reference)
        let explanations = Dictionary(Catalogue.all.map { ($0.id, $0.explanation) }, uniquingKeysWith: { first, _ in first })
        let html = HTMLReport(reports: [reference, derived], rules: rules, explanations: explanations, specLink: "../spec/")
        let page = html.render()
        #expect(page.components(separatedBy: " cell\" data-case=").count - 1 == reference.cases.count * 2)
        #expect(page.contains("v-none cell\" data-case=\"\(reference.cases[2].id)\" data-subject=\"1\""))
        let rule = try #require(rules.first { $0.id == reference.cases[0].rules[0] })
        #expect(page.contains("<a href=\"../spec/\(rule.file)#\(rule.id.lowercased())\">"))
        #expect(
            page.contains(
                "<p class=\"rule-text\">\(html.ruleParagraph(rule.text.components(separatedBy: "\n\n")[0], ruleFile: rule.file))</p>"))
        #expect(page.contains(HTMLEscaping.escape(try #require(explanations[reference.cases[0].id]))))
        #expect(page.contains("<td>derived-lib</td><td>9.9.9</td>"))
        #expect(page.contains("data-differs=\"1\""))
    }

    @Test("a rule's inline code and links are drawn, after escaping, and only relative and https links are links")
    func ruleMarkdown() {
        let html = HTMLReport(reports: [], rules: [], explanations: [:], specLink: "../spec/")
        #expect(
            html.ruleParagraph(
                "A `401` is <b>not</b> [ERR-13](errors.md#err-13), see [RFC](https://rfc-editor.org/rfc/rfc9110).", ruleFile: "fetch.md")
                == #"A <code>401</code> is &lt;b&gt;not&lt;/b&gt; <a href="../spec/errors.md#err-13">ERR-13</a>, see "#
                + #"<a href="https://rfc-editor.org/rfc/rfc9110">RFC</a>."#)
        #expect(html.ruleParagraph("[x](javascript:alert(1))", ruleFile: "fetch.md") == "[x](javascript:alert(1))")
        #expect(html.ruleParagraph("`<script>`", ruleFile: "fetch.md") == "<code>&lt;script&gt;</code>")
    }

    @Test("a link to a rule of the same file points into that file, not at the spec folder")
    func sameFileLink() {
        let html = HTMLReport(reports: [], rules: [], explanations: [:], specLink: "../spec/")
        #expect(
            html.ruleParagraph("as [HTTP-18](#http-18) says", ruleFile: "transport.md")
                == #"as <a href="../spec/transport.md#http-18">HTTP-18</a> says"#)
        #expect(
            SpecLinks.rebase(markdown: "see [HTTP-15](#http-15) and [ERR-9](errors.md#err-9)", ruleFile: "transport.md", specFolder: "")
                == "see [HTTP-15](transport.md#http-15) and [ERR-9](errors.md#err-9)")
    }

    @Test("the rule links are relative to where the page is written")
    func relativeLinks() {
        func relative(_ from: String, _ to: String) -> String {
            ConformanceCommandLine.relativePath(from: URL(fileURLWithPath: from), to: URL(fileURLWithPath: to))
        }
        #expect(relative("/repo/docs/conformance", "/repo/docs/spec") == "../spec")
        #expect(relative("/repo", "/repo/docs/spec") == "docs/spec")
        #expect(relative("/tmp/out", "/repo/docs/spec") == "../../repo/docs/spec")
    }

    @Test("a case's explanation comes from its report, and from this build's catalogue only when the report has none")
    func explanationFromTheReport() async throws {
        let reference = try await ReferenceRun.report.value
        let directory = try DerivedReport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        var older = reference
        older.cases[0].explanation = "the words of an older suite"
        older.cases[1].explanation = nil
        let report = try DerivedReport.write(older, in: directory, name: "older.json")
        let output = directory.appendingPathComponent("out.html").path
        #expect(ConformanceCommandLine.run(arguments: ["report", "--html", output, "--spec", spec, report], subjects: subjects) == 0)
        let page = try String(contentsOfFile: output, encoding: .utf8)
        #expect(page.contains("<p class=\"explanation\">the words of an older suite</p>"))
        let catalogued = try #require(Catalogue.all.first { $0.id == reference.cases[1].id })
        #expect(page.contains("<p class=\"explanation\">\(HTMLEscaping.escape(catalogued.explanation))</p>"))
    }

    @Test("report refuses what it cannot draw with a sysexits status, and writes nothing")
    func reportErrors() async throws {
        let reference = try await ReferenceRun.report.value
        let directory = try DerivedReport.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: directory) }
        let good = try DerivedReport.write(reference, in: directory, name: "reference.json")
        var older = reference
        older.suiteVersion = "0.0.1"
        let mixed = try DerivedReport.write(older, in: directory, name: "older.json")
        var future = reference
        future.schemaVersion = "4.0.0"
        let otherSchema = try DerivedReport.write(future, in: directory, name: "future.json")
        let garbage = directory.appendingPathComponent("garbage.json").path
        try Data("{\"schemaVersion\": \"3.0.0\"}".utf8).write(to: URL(fileURLWithPath: garbage))
        let output = directory.appendingPathComponent("out.html").path

        func report(_ arguments: [String], to path: String = output) -> Int32 {
            ConformanceCommandLine.run(arguments: ["report", "--html", path, "--spec", spec] + arguments, subjects: subjects)
        }
        #expect(ConformanceCommandLine.run(arguments: ["report", good], subjects: subjects) == 64)
        #expect(report([]) == 64)
        #expect(report([good, directory.appendingPathComponent("missing.json").path]) == 66)
        #expect(report([good, otherSchema]) == 65)
        #expect(report([garbage]) == 65)
        #expect(report([good, mixed]) == 65)
        #expect(report([good], to: directory.appendingPathComponent("no-such-folder/out.html").path) == 73)
        #expect(report([good], to: directory.path) == 73)
        #expect(!FileManager.default.fileExists(atPath: output), "nothing written on an error")
        #expect(report([good, mixed, "--allow-mixed"]) == 0)
        #expect(FileManager.default.fileExists(atPath: output))
    }
}
