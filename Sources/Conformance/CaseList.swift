/// What `--list` prints: one tab-separated line per case (ID, level, rules, the features the subject must
/// have, title), then the count. The features are there so that a subject's author sees, before a run,
/// which cases a declined feature turns into SKIP.
package enum CaseList {

    /// The listing of these cases; a case that requires no feature shows `-` in that column.
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
        return text + "\(cases.count) cases\n"
    }
}
