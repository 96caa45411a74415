import ConformanceModel
import Foundation

/// What `conformance list` prints: one tab-separated line per case (ID, level, rules, the features the subject
/// must have, title), then the count; or the same as JSON. The features are there so that a subject's author sees,
/// before a run, which cases a declined feature turns into SKIP.
package enum CaseList {

    /// The listing of these cases, a line each (the count is the command's to say, on standard error, so that every
    /// line of standard output is a case); a case that requires no feature shows `-` in that column.
    package static func render(_ cases: [ConformanceCase]) -> String {
        var text = ""
        for testCase in cases {
            let features = testCase.requires.map(\.rawValue).sorted().joined(separator: ",")
            let columns = [
                testCase.id, testCase.level.rawValue, testCase.rules.joined(separator: ","), features.isEmpty ? "-" : features,
                testCase.title,
            ]
            text += columns.joined(separator: "\t") + "\n"
        }
        return text
    }

    /// The listing as JSON: `{"suiteVersion": …, "cases": [{"id", "level", "rules", "requiredFeatures", "title"}]}`.
    package static func json(_ cases: [ConformanceCase]) throws -> Data {
        struct Entry: Encodable {
            var id: String
            var level: String
            var rules: [String]
            var requiredFeatures: [String]
            var title: String
        }
        struct Listing: Encodable {
            var suiteVersion = SuiteReport.suiteVersion
            var cases: [Entry]
        }
        let entries = cases.map {
            Entry(
                id: $0.id, level: $0.level.rawValue, rules: $0.rules, requiredFeatures: $0.requires.map(\.rawValue).sorted(),
                title: $0.title)
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(Listing(cases: entries))
    }
}
