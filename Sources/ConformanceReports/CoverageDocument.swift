import ConformanceModel

/// `docs/spec/coverage.md`: which cases check each rule, generated from the rules and the catalogue so that
/// it can never disagree with them (a test compares the file with what this renders).
package enum CoverageDocument {

    /// The document for these rules and cases.
    package static func render(rules: [SpecRule], cases: [ConformanceCase]) -> String {
        var casesByRule: [String: [String]] = [:]
        for testCase in cases {
            for rule in testCase.rules { casesByRule[rule, default: []].append(testCase.id) }
        }
        let must = rules.filter { $0.level == .must }
        let unchecked = rules.filter { $0.notCheckedReason != nil }
        let uncovered = rules.filter { $0.notCheckedReason == nil && casesByRule[$0.id] == nil }
        var md = "# Coverage of the rules by the conformance suite\n\n"
        md += "Generated from `docs/spec/*.md` and the catalogue by `Scripts/conformance coverage --output docs/spec/coverage.md`;\n"
        md += "do not edit. `Tests/Conformance/RuleTests.swift` fails when it is stale.\n\n"
        md += "\(rules.count) rules (\(must.count) MUST, \(rules.count - must.count) SHOULD), checked by \(cases.count) cases. "
        let mustChecked = must.filter { casesByRule[$0.id] != nil }.count
        let single = must.filter { independentCount(casesByRule[$0.id] ?? []) == 1 }
        md += "\(mustChecked) of the \(must.count) MUST rules have a case, "
        md += "\(single.count) of them one independent case only (a case and its `.h2` variant count as one), "
        md += "\(single.filter { $0.oneCaseReason != nil }.count) of which say why one is enough; "
        md += "\(unchecked.count) rules are not checked by the suite (listed at the end).\n"
        var files: [String] = []
        for rule in rules where !files.contains(rule.file) { files.append(rule.file) }
        for file in files {
            md += "\n## [\(file)](\(file))\n\n| rule | level | count | cases |\n|---|---|---|---|\n"
            for rule in rules where rule.file == file {
                let ids = casesByRule[rule.id] ?? []
                let cell =
                    ids.isEmpty
                    ? (rule.notCheckedReason == nil ? "**none**" : "not checked by the suite")
                    : ids.map { "`\($0)`" }.joined(separator: ", ")
                md += "| [\(rule.id)](\(rule.link)) | \(rule.level.rawValue) | \(ids.count) | \(cell) |\n"
            }
        }
        md += "\n## MUST rules checked by one case\n\n"
        if single.isEmpty {
            md += "None: every MUST rule with a case has two independent ones.\n"
        } else {
            md += "| rule | cases | why one is enough |\n|---|---|---|\n"
            for rule in single {
                let ids = (casesByRule[rule.id] ?? []).map { "`\($0)`" }.joined(separator: ", ")
                md += "| [\(rule.id)](\(rule.link)) | \(ids) | \(rule.oneCaseReason.map { cell(here($0, of: rule)) } ?? "**not said**") |\n"
            }
        }
        md += "\n## Not checked by the conformance suite\n\n"
        if unchecked.isEmpty {
            md += "None.\n"
        } else {
            md += "| rule | level | summary | why |\n|---|---|---|---|\n"
            for rule in unchecked {
                md +=
                    "| [\(rule.id)](\(rule.link)) | \(rule.level.rawValue) | \(cell(here(rule.summary, of: rule))) | \(cell(here(rule.notCheckedReason ?? "", of: rule))) |\n"
            }
        }
        if !uncovered.isEmpty {
            md += "\n## Without a case\n\nSHOULD rules no case checks yet (a MUST rule here fails the tests):\n\n"
            for rule in uncovered { md += "- [\(rule.id)](\(rule.link)) (\(rule.level.rawValue)): \(here(rule.summary, of: rule))\n" }
        }
        return md
    }

    /// A rule's text with its links made to work from `coverage.md`, which is in the spec folder but another file.
    private static func here(_ text: String, of rule: SpecRule) -> String {
        SpecLinks.rebase(markdown: text, ruleFile: rule.file, specFolder: "")
    }

    /// How many of these case IDs are independent of each other: an `.h2` variant beside its case checks the same
    /// input over another protocol, so the two count as one.
    package static func independentCount(_ ids: [String]) -> Int {
        let all = Set(ids)
        return Set(ids.map { $0.hasSuffix(".h2") && all.contains(String($0.dropLast(3))) ? String($0.dropLast(3)) : $0 }).count
    }

    private static func cell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
