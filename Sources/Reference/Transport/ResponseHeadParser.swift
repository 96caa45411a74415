/// Collects the response heads of one transfer from the lines libcurl hands over (status line, header lines,
/// the blank line that ends a head), for interim responses, redirects and the final response alike.
///
/// Pure: it sees bytes only, so it is tested on bytes. It bounds what a server can make the client hold:
/// past ``maximumBytes`` across all heads of the transfer, it refuses further lines.
struct ResponseHeadParser {

    /// The most head bytes accepted across all heads of one transfer (a flood of `103` heads included).
    static let maximumBytes = 256 * 1024

    /// The latest head (the one being read, or the last one read).
    private(set) var head: ResponseHead?
    /// Whether the latest head ended with its blank line.
    private(set) var isComplete = false
    /// Head bytes seen so far, across all heads.
    private(set) var byteCount = 0

    /// Takes one line; returns `false` when the heads outgrew ``maximumBytes`` (the transfer must stop).
    mutating func consume<Line: Collection<UInt8>>(_ line: Line) -> Bool {
        byteCount += line.count
        guard byteCount <= Self.maximumBytes else { return false }
        if line.starts(with: "HTTP/".utf8) {
            head = Self.statusLine(line)
            isComplete = false
            return true
        }
        let content = line.trimmingHTTPWhitespace()
        if content.isEmpty {
            if head != nil { isComplete = true }
            return true
        }
        guard let colon = content.firstIndex(of: UInt8(ascii: ":")) else { return true }  // not a field: ignored, as libcurl does
        let name = content[..<colon].trimmingHTTPWhitespace()
        let value = content[content.index(after: colon)...].trimmingHTTPWhitespace()
        head?.fields.append(.init(name: String(decoding: name, as: UTF8.self), value: String(decoding: value, as: UTF8.self)))
        return true
    }

    /// The protocol and the three-digit code of a status line (`HTTP/1.1 101 Switching Protocols`); code 0 when
    /// there is none.
    private static func statusLine<Line: Collection<UInt8>>(_ line: Line) -> ResponseHead {
        let bytes = Array(line.trimmingHTTPWhitespace())
        let space = bytes.firstIndex(of: UInt8(ascii: " ")) ?? bytes.endIndex
        let version = String(decoding: bytes[..<space], as: UTF8.self)
        let digits = bytes[min(space + 1, bytes.endIndex)...].prefix(4)
        let isCode =
            digits.count >= 3 && digits.prefix(3).allSatisfy { (0x30...0x39).contains($0) }
            && (digits.count == 3 || digits.last == UInt8(ascii: " "))
        let status = isCode ? digits.prefix(3).reduce(0) { $0 * 10 + Int($1 - 0x30) } : 0
        return ResponseHead(status: status, version: version)
    }
}

extension Collection where Element == UInt8 {
    /// The bytes without leading and trailing spaces, tabs, CR and LF.
    fileprivate func trimmingHTTPWhitespace() -> SubSequence {
        let isWhitespace: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0D || $0 == 0x0A }
        guard let first = firstIndex(where: { !isWhitespace($0) }) else { return self[endIndex...] }
        var last = first
        var index = first
        while index != endIndex {
            if !isWhitespace(self[index]) { last = index }
            formIndex(after: &index)
        }
        return self[first...last]
    }
}
