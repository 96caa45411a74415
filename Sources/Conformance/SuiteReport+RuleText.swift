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

/// The spec's rules, read once per process from `docs/spec` where it is found: `$CONFORMANCE_SPEC`, then from the
/// working directory upwards, then next to this source file (a build from a checkout).
enum RuleTexts {
    static let all: [String: SuiteReport.RuleText] = {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment["CONFORMANCE_SPEC"] { candidates.append(URL(fileURLWithPath: path)) }
        var directory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        for _ in 0..<6 {
            candidates.append(directory.appendingPathComponent("docs/spec"))
            directory.deleteLastPathComponent()
        }
        candidates.append(
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("docs/spec"))
        for candidate in candidates where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("README.md").path) {
            guard let rules = try? RuleBook.load(directory: candidate) else { continue }
            return Dictionary(
                rules.map { ($0.id, SuiteReport.RuleText(level: $0.level, file: $0.file, summary: $0.summary)) },
                uniquingKeysWith: { first, _ in first })
        }
        return [:]
    }()
}
