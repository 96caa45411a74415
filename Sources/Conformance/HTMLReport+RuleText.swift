extension HTMLReport {

    /// A paragraph of a rule as HTML: escaped first, then its two inline Markdown forms drawn, `` `code` `` and
    /// `[text](target)`, so that the rule reads as it does in `docs/spec`.
    ///
    /// Working on the escaped text keeps both forms safe: nothing they wrap can be markup any more. A link target is
    /// relative to the spec directory, or `https:`; any other scheme stays text.
    func ruleParagraph(_ paragraph: String) -> String {
        var html = e(paragraph)
        html.replace(#/`([^`]+)`/#) { "<code>\($0.output.1)</code>" }
        html.replace(#/\[([^\]]+)\]\(([^)\s]+)\)/#) { match in
            let target = String(match.output.2)
            if target.hasPrefix("https://") { return "<a href=\"\(target)\">\(match.output.1)</a>" }
            guard !target.contains(":") else { return String(match.output.0) }
            return "<a href=\"\(e(specLink))\(target)\">\(match.output.1)</a>"
        }
        return html
    }
}
