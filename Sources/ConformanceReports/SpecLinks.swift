/// The links of a rule's text, made to work where the text is shown.
///
/// A rule's Markdown links are relative to its own file in `docs/spec`: `[HTTP-18](#http-18)` points into the same
/// file, `[TRUST-6](trust.md#trust-6)` into another. Quoted in a report that lives elsewhere (`docs/conformance`),
/// or in `coverage.md`, which is another file, both would break; every place that quotes rule text rebases them here.
package enum SpecLinks {

    /// Where a link target of `ruleFile` points, seen from a page that reaches the spec folder as `specFolder`
    /// (`../spec/`, or `""` from inside it); `https:` targets are kept, and `nil` means the target is no link to draw
    /// (another scheme).
    package static func target(_ target: String, inRuleFile ruleFile: String, specFolder: String) -> String? {
        if target.hasPrefix("https://") { return target }
        if target.hasPrefix("#") { return specFolder + ruleFile + target }
        guard !target.contains(":") else { return nil }
        return specFolder + target
    }

    /// Markdown text of `ruleFile` with every `[text](target)` rebased for a page that reaches the spec folder as
    /// `specFolder`.
    package static func rebase(markdown: String, ruleFile: String, specFolder: String) -> String {
        markdown.replacing(#/\[([^\]]+)\]\(([^)\s]+)\)/#) { match in
            guard let rebased = target(String(match.output.2), inRuleFile: ruleFile, specFolder: specFolder) else {
                return String(match.output.0)
            }
            return "[\(match.output.1)](\(rebased))"
        }
    }
}
