/// A pure, incremental decoder for a chunked request body (RFC 9112 §7.1): feed it bytes as they arrive.
struct ChunkedBodyDecoder: Sendable {
    enum Status: Sendable, Equatable {
        case needMore
        case done
        case invalid(String)
        /// The chunks add up to more than ``maximumBodySize``; the chunk that would cross it is not read.
        case tooLarge
    }

    private enum State: Sendable { case size, data(Int), dataEnd, trailer, done }

    /// A size line longer than this is malformed; it also bounds how much is buffered waiting for a line end.
    static let maximumLineLength = 4096

    /// The largest body accepted, so that a client cannot make the server buffer without bound.
    let maximumBodySize: Int
    private(set) var body: [UInt8] = []
    private(set) var chunkSizes: [Int] = []
    private var state = State.size

    init(maximumBodySize: Int = .max) {
        self.maximumBodySize = maximumBodySize
    }

    /// Consumes what it can from `bytes[index...]`, advancing `index` past the consumed bytes.
    mutating func decode(_ bytes: [UInt8], index: inout Int) -> Status {
        while true {
            switch state {
            case .done:
                return .done
            case .size:
                guard let line = Self.line(bytes, from: index) else { return pendingLine(bytes, index) }
                guard let size = Self.chunkSize(bytes[index..<line.contentEnd]) else {
                    return .invalid("malformed chunk size line")
                }
                // Judged on the declared size, before any of its data is buffered.
                guard size <= maximumBodySize - body.count else { return .tooLarge }
                index = line.next
                if size == 0 {
                    state = .trailer
                } else {
                    chunkSizes.append(size)
                    state = .data(size)
                }
            case .data(let remaining):
                let available = min(remaining, bytes.count - index)
                if available == 0 { return .needMore }
                body.append(contentsOf: bytes[index..<index + available])
                index += available
                state = remaining == available ? .dataEnd : .data(remaining - available)
            case .dataEnd:
                guard let line = Self.line(bytes, from: index) else { return pendingLine(bytes, index) }
                guard line.contentEnd == index else { return .invalid("chunk data longer than its size") }
                index = line.next
                state = .size
            case .trailer:
                guard let line = Self.line(bytes, from: index) else { return pendingLine(bytes, index) }
                let empty = line.contentEnd == index
                index = line.next
                if empty { state = .done }
            }
        }
    }

    /// The size of a `chunk-size [chunk-ext]` line, or nil when any part of it is malformed.
    ///
    /// Hand-rolled rather than `Int(_:radix:)`, which accepts a sign ("-5") and would hand a negative size to
    /// the data state.
    static func chunkSize(_ line: ArraySlice<UInt8>) -> Int? {
        var index = line.startIndex
        var size = 0
        var significantDigits = 0
        while index < line.endIndex, let digit = hexValue(line[index]) {
            if size != 0 || digit != 0 { significantDigits += 1 }
            // 15 hexadecimal digits stay below 2^60, so `size` cannot overflow.
            guard significantDigits <= 15 else { return nil }
            size = size << 4 | digit
            index += 1
        }
        guard index > line.startIndex, validExtensions(line[index...]) else { return nil }
        return size
    }

    /// `*( BWS ";" BWS name [ BWS "=" BWS ( token / quoted-string ) ] )` (RFC 9112 §7.1.1).
    private static func validExtensions(_ text: ArraySlice<UInt8>) -> Bool {
        var index = text.startIndex
        func skipWhitespace() { while index < text.endIndex, text[index] == 32 || text[index] == 9 { index += 1 } }
        func token() -> Bool {
            let start = index
            while index < text.endIndex, isTokenByte(text[index]) { index += 1 }
            return index > start
        }
        while true {
            skipWhitespace()
            if index == text.endIndex { return true }
            guard text[index] == UInt8(ascii: ";") else { return false }
            index += 1
            skipWhitespace()
            guard token() else { return false }
            skipWhitespace()
            guard index < text.endIndex, text[index] == UInt8(ascii: "=") else { continue }
            index += 1
            skipWhitespace()
            if index < text.endIndex, text[index] == UInt8(ascii: "\"") {
                guard let end = quotedStringEnd(text, from: index) else { return false }
                index = end
            } else if !token() {
                return false
            }
        }
    }

    /// The index after the closing quote of the quoted-string opening at `start`, honouring backslash escapes.
    private static func quotedStringEnd(_ text: ArraySlice<UInt8>, from start: Int) -> Int? {
        var index = start + 1
        while index < text.endIndex {
            switch text[index] {
            case UInt8(ascii: "\""): return index + 1
            case UInt8(ascii: "\\"): index += 2
            case 0..<32 where text[index] != 9, 127: return nil
            default: index += 1
            }
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }

    private static func isTokenByte(_ byte: UInt8) -> Bool {
        guard byte > 32, byte < 127 else { return false }
        return !Array("\"(),/:;<=>?@[\\]{}".utf8).contains(byte)
    }

    private func pendingLine(_ bytes: [UInt8], _ index: Int) -> Status {
        bytes.count - index > Self.maximumLineLength ? .invalid("chunk line too long") : .needMore
    }

    /// The end of the line's content (before CR LF or LF) and the index after its terminator.
    private static func line(_ bytes: [UInt8], from start: Int) -> (contentEnd: Int, next: Int)? {
        var index = start
        while index < bytes.count {
            if bytes[index] == 10 {
                let contentEnd = index > start && bytes[index - 1] == 13 ? index - 1 : index
                return (contentEnd, index + 1)
            }
            index += 1
        }
        return nil
    }
}
