import Conformance
import Foundation
import TestTraits
import Testing

/// Runs a Python check and returns its exit status and output.
private func python(_ script: String, _ arguments: [String]) throws -> (Int32, String) {
    let result = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script] + arguments)
    return (result.status, result.combinedOutput)
}

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

private func temporaryFile(_ name: String, _ contents: String) throws -> String {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("conformance-\(UUID().uuidString)-\(name)").path
    try contents.write(toFile: path, atomically: true, encoding: .utf8)
    return path
}

@Suite("Reports are machine-readable and valid", .scaledTimeLimit(minutes: 2), .blocking)
struct ReportFormatTests {

    @Test("the JSON report validates against docs/conformance/report.schema.json")
    func jsonValidatesAgainstSchema() async throws {
        let report = try await ReferenceRun.report.value
        let json = try temporaryFile("report.json", String(decoding: try JSONReport.encode(report), as: UTF8.self))
        let schema = repository.appendingPathComponent("docs/conformance/report.schema.json").path
        let (status, output) = try python(
            """
            import json, sys, jsonschema
            schema = json.load(open(sys.argv[1]))
            jsonschema.Draft202012Validator.check_schema(schema)
            jsonschema.validate(json.load(open(sys.argv[2])), schema, format_checker=jsonschema.FormatChecker())
            """, [schema, json])
        #expect(status == 0, "\(output)")
    }

    @Test("the JSON report round-trips")
    func jsonRoundTrips() async throws {
        let report = try await ReferenceRun.report.value
        let decoded = try JSONReport.decode(try JSONReport.encode(report))
        // Large bodies come back as their length and digest, everything else as it was.
        #expect(decoded.cases == report.cases.map(\.withLargeBodiesDigested))
        #expect(decoded.summary == report.summary)
    }

    @Test("the JUnit report is well-formed, with one testcase per case, its rules, and the JUnit elements CI tools read")
    func junitIsWellFormed() async throws {
        let report = try await ReferenceRun.report.value
        let xml = try temporaryFile("report.xml", JUnitReport.render(report))
        let (status, output) = try python(
            """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            assert root.tag == "testsuites", root.tag
            for attribute in ("tests", "failures", "errors", "skipped", "time"):
                assert attribute in root.attrib, attribute
            suites = root.findall("testsuite")
            assert suites, "no testsuite"
            total = 0
            for suite in suites:
                for attribute in ("name", "tests", "failures", "errors", "skipped", "time"):
                    assert attribute in suite.attrib, (suite.attrib, attribute)
                cases = suite.findall("testcase")
                assert int(suite.attrib["tests"]) == len(cases)
                for case in cases:
                    assert case.attrib["name"] and case.attrib["classname"] and float(case.attrib["time"]) >= 0
                    children = [child.tag for child in case if child.tag not in ("properties", "system-out")]
                    assert set(children) <= {"failure", "error", "skipped"} and len(children) <= 1, children
                    rules = [p.attrib["value"] for p in case.findall("properties/property") if p.attrib["name"] == "rule"]
                    assert rules, ("no rule property", case.attrib["name"])
                total += len(cases)
            assert total == int(root.attrib["tests"]) == int(sys.argv[2]), (total, root.attrib["tests"])
            print("ok")
            """, [xml, "\(report.cases.count)"])
        #expect(status == 0, "\(output)")
    }

    @Test("the Markdown report names every case, its rules, and the summary")
    func markdownListsEveryCase() async throws {
        let report = try await ReferenceRun.report.value
        let markdown = MarkdownReport.render(report)
        #expect(markdown.contains(report.summary.description))
        #expect(report.cases.allSatisfy { markdown.contains("`\($0.id)`") })
        #expect(report.cases.allSatisfy { markdown.contains(" | \($0.rules.joined(separator: " ")) | \($0.title)") })
    }
}
