import Foundation

extension SuiteReport {

    /// A rule a case of the report cites, as `docs/spec` states it, so that a report quotes the requirement it
    /// judged (h2spec does the same) without the reader opening the spec.
    public struct RuleText: Sendable, Codable, Hashable {
        /// MUST or SHOULD.
        public var level: ConformanceLevel
        /// The spec file that defines it (`errors.md`); its anchor is the lower-cased ID.
        public var file: String
        /// The rule's first sentence.
        public var summary: String

        /// Creates a rule text.
        public init(level: ConformanceLevel, file: String, summary: String) {
            self.level = level
            self.file = file
            self.summary = summary
        }
    }

    /// The texts of the rules these cases cite, from the spec `RuleTexts.all` found; empty when none was found.
    static func ruleTexts(citedBy cases: [CaseResult]) -> [String: RuleText] {
        let cited = Set(cases.flatMap(\.rules))
        return RuleTexts.all.filter { cited.contains($0.key) }
    }
}

/// The spec's rules, read once per process from `docs/spec` where it is found (`$CONFORMANCE_SPEC` first).
enum RuleTexts {
    static let all: [String: SuiteReport.RuleText] = {
        for candidate in RepositoryFolder.candidates("docs/spec", environment: "CONFORMANCE_SPEC")
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("README.md").path) {
            guard let rules = try? RuleBook.load(directory: candidate) else { continue }
            return Dictionary(
                rules.map { ($0.id, SuiteReport.RuleText(level: $0.level, file: $0.file, summary: $0.summary)) },
                uniquingKeysWith: { first, _ in first })
        }
        return [:]
    }()
}
