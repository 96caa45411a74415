import Foundation

/// Reads the rules from `docs/spec/*.md`, the only place they are written down.
///
/// The Markdown is the source because each rule needs prose (its reasoning, how it departs from Alicerce)
/// that would be awkward in Swift; the format it relies on is small and is described in `docs/spec/README.md`:
/// a `### ID` heading, then a paragraph opening with `**MUST.**` or `**SHOULD.**`, and optionally a line opening
/// with `*Not checked by the conformance suite:*` or `*One case is enough:*`.
package enum RuleBook {

    /// A rule file that does not follow the format.
    package struct FormatError: Error, CustomStringConvertible {
        /// The file and the problem.
        package var description: String
    }

    /// The files of the directory that hold no rules.
    package static let nonRuleFiles: Set<String> = ["README.md", "coverage.md"]

    private static let notCheckedMarker = "*Not checked by the conformance suite:*"
    private static let oneCaseMarker = "*One case is enough:*"

    /// The rules of one file, in order.
    package static func parse(_ markdown: String, file: String) throws -> [SpecRule] {
        var rules: [SpecRule] = []
        let lines = markdown.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        var index = 0
        while index < lines.count {
            guard let id = ruleID(inHeading: lines[index]) else {
                index += 1
                continue
            }
            index += 1
            var paragraph: [String] = []
            // The marked paragraphs (not checked, one case is enough), by marker; the one being read, if any.
            var marked: [String: [String]] = [:]
            var reading: String?
            while index < lines.count, !lines[index].hasPrefix("#") {
                let line = lines[index].trimmingCharacters(in: .whitespaces)
                if let marker = [notCheckedMarker, oneCaseMarker].first(where: line.hasPrefix) {
                    marked[marker] = [String(line.dropFirst(marker.count)).trimmingCharacters(in: .whitespaces)]
                    reading = marker
                } else if line.isEmpty {
                    reading = nil
                    if paragraph.last?.isEmpty == false { paragraph.append("") }
                } else if let marker = reading {
                    marked[marker]?.append(line)
                } else {
                    paragraph.append(line)
                }
                index += 1
            }
            let first = paragraph.prefix { !$0.isEmpty }.joined(separator: " ")
            let level: ConformanceLevel
            let body: Substring
            if first.hasPrefix("**MUST.**") {
                level = .must
                body = first.dropFirst("**MUST.**".count)
            } else if first.hasPrefix("**SHOULD.**") {
                level = .should
                body = first.dropFirst("**SHOULD.**".count)
            } else {
                throw FormatError(description: "\(file): \(id) does not open with **MUST.** or **SHOULD.**")
            }
            // The later paragraphs (a "Why:", an example) belong to the rule as much as its first one does.
            let later = paragraph.drop { !$0.isEmpty }.split(separator: "", omittingEmptySubsequences: true)
            let text = ([body.trimmingCharacters(in: .whitespaces)] + later.map { $0.joined(separator: " ") }).joined(separator: "\n\n")
            rules.append(
                SpecRule(
                    id: id, level: level, file: file, summary: firstSentence(body.trimmingCharacters(in: .whitespaces)), text: text,
                    notCheckedReason: marked[notCheckedMarker].map { $0.joined(separator: " ") },
                    oneCaseReason: marked[oneCaseMarker].map { $0.joined(separator: " ") }))
        }
        return rules
    }

    /// Every rule of the directory's rule files, in file-name order; IDs may repeat (the tests check they do not).
    package static func load(directory: URL) throws -> [SpecRule] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { $0.hasSuffix(".md") && !nonRuleFiles.contains($0) }
            .sorted()
        return try names.flatMap { name in
            try parse(String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8), file: name)
        }
    }

    /// `ERR-13` from `### ERR-13`; nil for any other line.
    static func ruleID(inHeading line: String) -> String? {
        guard line.hasPrefix("### ") else { return nil }
        let id = line.dropFirst(4).trimmingCharacters(in: .whitespaces)
        guard isRuleID(id) else { return nil }
        return id
    }

    /// Whether a string has the shape of a rule ID: capital letters, a hyphen, a number.
    package static func isRuleID(_ text: String) -> Bool {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        return parts.count == 2 && !parts[0].isEmpty && parts[0].allSatisfy { $0.isUppercase && $0.isASCII }
            && !parts[1].isEmpty && parts[1].allSatisfy { $0.isNumber && $0.isASCII }
    }

    private static func firstSentence(_ text: String) -> String {
        guard let end = text.range(of: ". ") else { return text }
        return String(text[..<end.lowerBound]) + "."
    }
}
