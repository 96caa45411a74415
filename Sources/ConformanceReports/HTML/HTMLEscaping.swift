/// Escapes text for HTML, in element content and in quoted attribute values alike.
///
/// Everything a report carries came from somewhere the report's reader does not control: case text, a
/// subject's name, a server body quoted in a journal or a mismatch. The HTML report puts every such string
/// through ``escape(_:)``, so that none of them can open a tag, close an attribute or start a script.
package enum HTMLEscaping {

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by character references.
    package static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&#39;"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}
