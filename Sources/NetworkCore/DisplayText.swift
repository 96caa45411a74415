/// Text from outside the program, made safe to show in one line of an error, a terminal or a report.
///
/// Much of what an error carries came from a server: a certificate's subject, a reason phrase, a library's message
/// that quotes a header. Shown as it came, a control character could break the line, an escape sequence could
/// drive the reader's terminal, and 100 KiB of it would bury the rest. So every such field goes through
/// ``line(_:limit:)`` before it is shown.
package enum DisplayText {

    /// The most characters of one field an error shows by default.
    package static let defaultLimit = 300

    /// `text` on one line: control characters (C0, DEL, C1, the line and paragraph separators, the bidirectional
    /// overrides and isolates that reorder what follows, the zero-width ones that hide it) written as `\u{…}` escapes,
    /// a backslash doubled (so that an escape the text wrote itself cannot pass for one of these), and at most `limit`
    /// characters shown, the cut said with how much was left out.
    package static func line(_ text: String, limit: Int = defaultLimit) -> String {
        var shown = ""
        var length = 0
        var index = text.unicodeScalars.startIndex
        let scalars = text.unicodeScalars
        while index != scalars.endIndex {
            let scalar = scalars[index]
            let piece =
                isControl(scalar) ? "\\u{" + String(scalar.value, radix: 16) + "}" : scalar == "\\" ? "\\\\" : String(scalar)
            guard length + piece.unicodeScalars.count <= limit else { break }
            shown += piece
            length += piece.unicodeScalars.count
            index = scalars.index(after: index)
        }
        let left = scalars[index...].count
        if left > 0 { shown += "… (\(left) more characters)" }
        return shown
    }

    /// `text` cut to at most `limit` characters, the cut said with how much was left out, and nothing else changed: for
    /// the formats that escape on their own (HTML, XML) but must not carry 100 KiB of one field.
    package static func bounded(_ text: String, limit: Int = defaultLimit) -> String {
        guard text.count > limit else { return text }
        return String(text.prefix(limit)) + "… (\(text.count - limit) more characters)"
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00...0x1F, 0x7F...0x9F, 0x200B...0x200F, 0x2028...0x202E, 0x2066...0x2069, 0xFEFF: return true
        default: return false
        }
    }
}
