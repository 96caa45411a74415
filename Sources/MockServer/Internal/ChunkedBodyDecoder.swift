/// A pure, incremental decoder for a chunked request body (RFC 9112 §7.1): feed it bytes as they arrive.
struct ChunkedBodyDecoder: Sendable {
    enum Status: Sendable, Equatable {
        case needMore
        case done
        case invalid(String)
    }

    private enum State: Sendable { case size, data(Int), dataEnd, trailer, done }

    /// A size line longer than this is malformed; it also bounds how much is buffered waiting for a line end.
    static let maximumLineLength = 4096

    private(set) var body: [UInt8] = []
    private(set) var chunkSizes: [Int] = []
    private var state = State.size

    /// Consumes what it can from `bytes[index...]`, advancing `index` past the consumed bytes.
    mutating func decode(_ bytes: [UInt8], index: inout Int) -> Status {
        while true {
            switch state {
            case .done:
                return .done
            case .size:
                guard let line = Self.line(bytes, from: index) else { return pendingLine(bytes, index) }
                let text = bytes[index..<line.contentEnd]
                let sizeDigits = text.prefix { $0 != UInt8(ascii: ";") && $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }
                guard !sizeDigits.isEmpty, sizeDigits.count <= 15, let size = Int(String(decoding: sizeDigits, as: UTF8.self), radix: 16) else {
                    return .invalid("malformed chunk size line")
                }
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
