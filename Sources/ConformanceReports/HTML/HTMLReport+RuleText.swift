extension HTMLReport {

    /// A paragraph of a rule as HTML: escaped first, then its two inline Markdown forms drawn, `` `code` `` and
    /// `[text](target)`, so that the rule reads as it does in `docs/spec`.
    ///
    /// Working on the escaped text keeps both forms safe: nothing they wrap can be markup any more. A link target is
    /// relative to the rule's file (`SpecLinks`), or `https:`; any other scheme stays text.
    package func ruleParagraph(_ paragraph: String, ruleFile: String) -> String {
        var html = e(paragraph)
        html.replace(#/`([^`]+)`/#) { "<code>\($0.output.1)</code>" }
        html.replace(#/\[([^\]]+)\]\(([^)\s]+)\)/#) { match in
            // The target was escaped with the text: the folder and file names added around it are escaped too.
            guard let target = SpecLinks.target(String(match.output.2), inRuleFile: e(ruleFile), specFolder: e(specLink)) else {
                return String(match.output.0)
            }
            return "<a href=\"\(target)\">\(match.output.1)</a>"
        }
        return html
    }
}
