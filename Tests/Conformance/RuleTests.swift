import Conformance
import Foundation
import Testing

private let specDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("docs/spec")

private func loadRules() throws -> [SpecRule] {
    try RuleBook.load(directory: specDirectory)
}

@Suite("Every case cites the rules of docs/spec, and every MUST rule has a case")
struct RuleTests {

    @Test("rule IDs are defined once")
    func uniqueRuleIDs() throws {
        let ids = try loadRules().map(\.id)
        #expect(!ids.isEmpty)
        let repeated = Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys.sorted()
        #expect(repeated.isEmpty, "defined more than once: \(repeated)")
    }

    @Test("every case cites at least one rule, each once")
    func everyCaseCitesARule() {
        for testCase in Catalogue.all {
            #expect(!testCase.rules.isEmpty, "\(testCase.id) cites no rule")
            #expect(Set(testCase.rules).count == testCase.rules.count, "\(testCase.id) cites a rule twice")
        }
    }

    @Test("every rule a case cites exists in docs/spec")
    func citedRulesExist() throws {
        let known = Set(try loadRules().map(\.id))
        for testCase in Catalogue.all {
            let unknown = testCase.rules.filter { !known.contains($0) }
            #expect(unknown.isEmpty, "\(testCase.id) cites \(unknown), which docs/spec does not define")
        }
    }

    @Test("every MUST rule has a case, unless it is marked as not checked by the suite")
    func everyMustRuleIsChecked() throws {
        let cited = Set(Catalogue.all.flatMap(\.rules))
        let uncovered = try loadRules().filter { $0.level == .must && $0.notCheckedReason == nil && !cited.contains($0.id) }
        #expect(uncovered.isEmpty, "MUST rules without a case: \(uncovered.map(\.id))")
    }

    @Test("every MUST rule has two independent cases, unless it says why one is enough")
    func everyMustRuleHasTwoIndependentCases() throws {
        let cases = Dictionary(grouping: Catalogue.all.flatMap { testCase in testCase.rules.map { ($0, testCase.id) } }, by: \.0)
            .mapValues { $0.map(\.1) }
        let rules = try loadRules().filter { $0.level == .must && $0.notCheckedReason == nil }
        let single = rules.filter { CoverageDocument.independentCount(cases[$0.id] ?? []) == 1 }
        #expect(single.filter { $0.oneCaseReason == nil }.map(\.id) == [], "MUST rules with one independent case and no reason")
        let stale = rules.filter { $0.oneCaseReason != nil && CoverageDocument.independentCount(cases[$0.id] ?? []) > 1 }
        #expect(stale.map(\.id) == [], "say one case is enough, yet have two")
    }

    @Test("a case and its .h2 variant count as one independent case; other cases count apart")
    func h2VariantsAreNotIndependent() {
        #expect(CoverageDocument.independentCount(["body.async-fetch", "body.async-fetch.h2"]) == 1)
        #expect(CoverageDocument.independentCount(["body.async-fetch", "body.async-fetch.error", "body.async-fetch.h2"]) == 2)
        #expect(CoverageDocument.independentCount(["http2.only.h2"]) == 1)
        #expect(CoverageDocument.independentCount([]) == 0)
    }

    @Test("MUST rules the suite cannot check are reported as warnings, each with its reason")
    func uncheckedMustRulesAreReported() throws {
        let unchecked = try loadRules().filter { $0.level == .must && $0.notCheckedReason != nil }
        for rule in unchecked {
            Issue.record("MUST rule \(rule.id) is not checked by the conformance suite: \(rule.notCheckedReason ?? "")", severity: .warning)
        }
        let coverage = try String(contentsOf: specDirectory.appendingPathComponent("coverage.md"), encoding: .utf8)
        let section = try #require(coverage.components(separatedBy: "## Not checked by the conformance suite").last)
        for rule in unchecked { #expect(section.contains("[\(rule.id)]"), "\(rule.id) missing from coverage.md") }
    }

    @Test("a rule marked as not checked by the suite has no case")
    func notCheckedMarksAreCurrent() throws {
        let cited = Set(Catalogue.all.flatMap(\.rules))
        let stale = try loadRules().filter { $0.notCheckedReason != nil && cited.contains($0.id) }
        #expect(stale.isEmpty, "marked as not checked, yet cited by a case: \(stale.map(\.id))")
    }

    @Test("docs/spec/coverage.md is what the rules and the catalogue generate")
    func coverageIsCurrent() throws {
        let expected = CoverageDocument.render(rules: try loadRules(), cases: Catalogue.all)
        let actual = try String(contentsOf: specDirectory.appendingPathComponent("coverage.md"), encoding: .utf8)
        #expect(actual == expected, "stale: run Scripts/conformance coverage --output docs/spec/coverage.md")
    }

    @Test("coverage.md shows how many cases check each rule")
    func coverageCountsCasesPerRule() {
        let rules = [
            SpecRule(id: "AREA-1", level: .must, file: "area.md", summary: "Two cases."),
            SpecRule(id: "AREA-2", level: .should, file: "area.md", summary: "No case."),
        ]
        let cases = Catalogue.all.prefix(2).map(\.id)
        let text = CoverageDocument.render(rules: rules, cases: Array(Catalogue.all.prefix(2)).map { $0.citing(["AREA-1"]) })
        #expect(text.contains("| rule | level | count | cases |"))
        #expect(text.contains("| [AREA-1](area.md#area-1) | MUST | 2 | `\(cases[0])`, `\(cases[1])` |"))
        #expect(text.contains("| [AREA-2](area.md#area-2) | SHOULD | 0 | **none** |"))
        #expect(text.contains("1 of the 1 MUST rules have a case, 0 of them one independent case only"))
        #expect(text.contains("None: every MUST rule with a case has two independent ones."))
    }

    @Test("coverage.md lists the MUST rules checked by one case, with the reason or its absence")
    func coverageListsSingleCaseRules() {
        let rules = [
            SpecRule(id: "AREA-1", level: .must, file: "area.md", summary: "One case.", oneCaseReason: "there is one path."),
            SpecRule(id: "AREA-2", level: .must, file: "area.md", summary: "One case, no reason."),
        ]
        let first = Catalogue.all[0]
        let text = CoverageDocument.render(rules: rules, cases: [first.citing(["AREA-1", "AREA-2"])])
        #expect(text.contains("2 of them one independent case only (a case and its `.h2` variant count as one), 1 of which say why"))
        #expect(text.contains("| [AREA-1](area.md#area-1) | `\(first.id)` | there is one path. |"))
        #expect(text.contains("| [AREA-2](area.md#area-2) | `\(first.id)` | **not said** |"))
    }

    @Test("a rule is its heading, its level, its first sentence and its whole text; the marked lines give the reasons")
    func parsesARule() throws {
        let markdown = """
            # Area

            ### AREA-1
            **MUST.** The first sentence. More detail.

            Departs from Alicerce: why.

            *One case is enough:* there is
            one path.

            ### AREA-2
            **SHOULD.** Something
            on two lines.

            *Not checked by the conformance suite:* it cannot be
            observed.
            """
        let rules = try RuleBook.parse(markdown, file: "area.md")
        #expect(
            rules == [
                SpecRule(
                    id: "AREA-1", level: .must, file: "area.md", summary: "The first sentence.",
                    text: "The first sentence. More detail.\n\nDeparts from Alicerce: why.", oneCaseReason: "there is one path."),
                SpecRule(
                    id: "AREA-2", level: .should, file: "area.md", summary: "Something on two lines.", text: "Something on two lines.",
                    notCheckedReason: "it cannot be observed."),
            ])
    }

    @Test("a rule without a level is a format error")
    func ruleWithoutLevel() {
        #expect(throws: RuleBook.FormatError.self) {
            try RuleBook.parse("### AREA-1\nNo level here.\n", file: "area.md")
        }
    }

    @Test("headings that are not rule IDs are not rules", arguments: ["### Completion", "### PIN", "### pin-1", "## PIN-1", "### PIN-1a"])
    func notARule(heading: String) throws {
        #expect(try RuleBook.parse("\(heading)\n**MUST.** Text.\n", file: "area.md").isEmpty)
    }
}

extension ConformanceCase {
    /// The same case citing other rules, to render coverage for rules of a test's own.
    fileprivate func citing(_ rules: [String]) -> ConformanceCase {
        ConformanceCase(
            id: id, title: title, rules: rules, level: level, explanation: explanation, requires: requires, server: server, stack: stack,
            resource: resource, action: action, expected: expected)
    }
}
