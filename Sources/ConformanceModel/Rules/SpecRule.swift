/// One rule of the project's specification (`docs/spec/*.md`), as ``RuleBook`` reads it.
package struct SpecRule: Sendable, Hashable {
    /// The stable ID, e.g. `PIN-7`.
    package var id: String
    /// MUST or SHOULD.
    package var level: ConformanceLevel
    /// The file that defines it, e.g. `trust.md`.
    package var file: String
    /// The first sentence of the rule.
    package var summary: String
    /// The rule's whole text as the spec writes it (Markdown, without the `**MUST.**` opening): its paragraphs, reasons
    /// included, separated by blank lines; the HTML report quotes it in full.
    package var text: String
    /// Why no conformance case can check it, when the rule says so; `nil` for a rule the suite checks.
    package var notCheckedReason: String?
    /// Why one conformance case is enough to check it, when the rule says so; `nil` for a rule that wants two
    /// independent cases (a case and its `.h2` variant count as one).
    package var oneCaseReason: String?

    /// Creates a rule; its text is its summary unless given.
    package init(
        id: String, level: ConformanceLevel, file: String, summary: String, text: String? = nil, notCheckedReason: String? = nil,
        oneCaseReason: String? = nil
    ) {
        self.id = id
        self.level = level
        self.file = file
        self.summary = summary
        self.text = text ?? summary
        self.notCheckedReason = notCheckedReason
        self.oneCaseReason = oneCaseReason
    }

    /// The link to the rule from a file in the same directory.
    package var link: String { "\(file)#\(id.lowercased())" }
}
