/// The parsed head of an HTTP/1.x request, before its body.
struct RequestHead: Sendable, Equatable {
    /// How the body is delimited.
    enum Framing: Sendable, Equatable {
        case none
        case contentLength(Int)
        case chunked
    }

    struct Field: Sendable, Equatable {
        var name: String
        var value: String
    }

    var method: String
    var target: String
    var version: String
    var fields: [Field]
    var framing: Framing
    /// Bytes of the head on the wire, including the blank line.
    var length: Int

    var expectsContinue: Bool {
        fields.contains { $0.name.lowercased() == "expect" && $0.value.lowercased() == "100-continue" }
    }

    /// HTTP/1.1 keeps the connection unless told to close; HTTP/1.0 closes unless told to keep it.
    var wantsClose: Bool {
        let tokens = fields.filter { $0.name.lowercased() == "connection" }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingSpaces() } }
        if tokens.contains("close") { return true }
        return version == "HTTP/1.0" && !tokens.contains("keep-alive")
    }

    var path: String {
        let withoutQuery = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        if withoutQuery.hasPrefix("/") || withoutQuery == "*" { return String(withoutQuery) }
        // Absolute form (`http://host/path`): the path starts at the first slash after the authority.
        if let scheme = withoutQuery.firstRange(of: "://") {
            let rest = withoutQuery[scheme.upperBound...]
            return rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? "/"
        }
        return String(withoutQuery)
    }
}

/// A pure, incremental parser for HTTP/1.x request heads: call it again with more bytes until it answers.
///
/// It never touches a socket, so tests drive it with byte arrays. It is strict where leniency would let a
/// malformed request pass unnoticed (obsolete line folding, conflicting lengths, unknown transfer codings),
/// because the server's job is to record and reject those, not to guess.
enum HTTPRequestParser {
    /// Heads larger than this are rejected, so a client cannot make the server buffer without bound.
    static let maximumHeadLength = 64 * 1024

    enum HeadResult: Sendable, Equatable {
        case incomplete
        case complete(RequestHead)
        case invalid(String)
    }

    /// Parses the head starting at `start`; `.incomplete` means "read more and call again".
    static func parseHead(_ bytes: [UInt8], from start: Int = 0) -> HeadResult {
        guard let end = headEnd(bytes, from: start) else {
            return bytes.count - start > maximumHeadLength ? .invalid("request head larger than 64 KiB") : .incomplete
        }
        let length = end - start
        if length > maximumHeadLength { return .invalid("request head larger than 64 KiB") }
        // Split on bytes, not Characters: Swift treats CR LF as one Character, so "\n" would never match it.
        var lines = bytes[start..<end].split(separator: 10, omittingEmptySubsequences: false).map { line in
            decode(line.last == 13 ? line.dropLast() : line)
        }
        // Robustness (RFC 9112 §2.2): ignore empty lines before the request line.
        while let first = lines.first, first.isEmpty { lines.removeFirst() }
        while let last = lines.last, last.isEmpty { lines.removeLast() }
        guard let requestLine = lines.first else { return .invalid("empty request line") }

        let parts = requestLine.split(separator: " ", omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty else {
            return .invalid("malformed request line: \(requestLine.prefix(80))")
        }
        guard parts[0].allSatisfy(isTokenCharacter) else { return .invalid("malformed method: \(parts[0].prefix(40))") }
        guard parts[2] == "HTTP/1.1" || parts[2] == "HTTP/1.0" else {
            return .invalid("unsupported version: \(parts[2].prefix(40))")
        }

        var fields: [RequestHead.Field] = []
        for line in lines.dropFirst() {
            if line.first == " " || line.first == "\t" { return .invalid("obsolete header line folding") }
            guard let colon = line.firstIndex(of: ":") else { return .invalid("header line without a colon: \(line.prefix(80))") }
            let name = line[..<colon]
            guard !name.isEmpty, name.allSatisfy(isTokenCharacter) else { return .invalid("malformed header name: \(name.prefix(80))") }
            fields.append(.init(name: String(name), value: line[line.index(after: colon)...].trimmingSpaces()))
        }

        let framing: RequestHead.Framing
        switch self.framing(of: fields) {
        case .success(let value): framing = value
        case .failure(let reason): return .invalid(reason.text)
        }
        return .complete(
            RequestHead(
                method: String(parts[0]), target: String(parts[1]), version: String(parts[2]),
                fields: fields, framing: framing, length: length))
    }

    struct Reason: Error { var text: String }

    private static func framing(of fields: [RequestHead.Field]) -> Result<RequestHead.Framing, Reason> {
        let lengths = fields.filter { $0.name.lowercased() == "content-length" }
            // Empty elements kept, so that an empty or dangling value is judged malformed, not ignored.
            .flatMap { $0.value.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingSpaces() } }
        let codings = fields.filter { $0.name.lowercased() == "transfer-encoding" }
            .flatMap { $0.value.lowercased().split(separator: ",").map { $0.trimmingSpaces() } }
        if !codings.isEmpty {
            // Both framings at once is how request smuggling starts (RFC 9112 §6.1); reject it.
            if !lengths.isEmpty { return .failure(Reason(text: "both Transfer-Encoding and Content-Length")) }
            guard codings.last == "chunked" else {
                return .failure(Reason(text: "unsupported transfer coding: \(codings.joined(separator: ", "))"))
            }
            return .success(.chunked)
        }
        guard let first = lengths.first else { return .success(.none) }
        guard lengths.allSatisfy({ $0 == first }) else { return .failure(Reason(text: "conflicting Content-Length values")) }
        guard !first.isEmpty, first.count <= 18, first.allSatisfy(\.isASCIIDigit), let value = Int(first) else {
            return .failure(Reason(text: "malformed Content-Length: \(first.prefix(40))"))
        }
        return .success(value == 0 ? .none : .contentLength(value))
    }

    /// The index just past the blank line that ends the head (CRLF CRLF, or bare LF LF), if present.
    static func headEnd(_ bytes: [UInt8], from start: Int) -> Int? {
        var index = start
        // Skip leading empty lines so that they do not look like the end of the head.
        while index < bytes.count, bytes[index] == 13 || bytes[index] == 10 { index += 1 }
        while index < bytes.count {
            if bytes[index] == 10 {
                if index + 1 < bytes.count, bytes[index + 1] == 10 { return index + 2 }
                if index + 2 < bytes.count, bytes[index + 1] == 13, bytes[index + 2] == 10 { return index + 3 }
            }
            index += 1
        }
        return nil
    }

    /// UTF-8 when valid, else Latin-1, so that any byte sequence still yields a line to judge.
    private static func decode(_ bytes: ArraySlice<UInt8>) -> String {
        String(validating: bytes, as: UTF8.self) ?? String(bytes.map { Character(Unicode.Scalar($0)) })
    }

    private static func isTokenCharacter(_ character: Character) -> Bool {
        guard character.isASCII, let ascii = character.asciiValue, ascii > 32, ascii < 127 else { return false }
        return !"\"(),/:;<=>?@[\\]{}".contains(character)
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}

extension StringProtocol {
    func trimmingSpaces() -> String {
        var slice = Substring(self)
        while let first = slice.first, first == " " || first == "\t" { slice.removeFirst() }
        while let last = slice.last, last == " " || last == "\t" { slice.removeLast() }
        return String(slice)
    }
}
