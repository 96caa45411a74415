/// libFuzzer entry point: the reference stack's response-head parser, fed the input line by line as libcurl
/// hands header lines over (each line keeps its LF).
///
/// Compiled by `Scripts/fuzz` with `Sources/Reference/Transport/ResponseHead*.swift` alone: the parser is pure.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzResponseHead(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    var parser = ResponseHeadParser()
    var start = 0
    var fed = 0
    while start < bytes.count {
        let end = bytes[start...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        let accepted = parser.consume(bytes[start..<end])
        fed += end - start
        precondition(parser.byteCount == fed, "byte count \(parser.byteCount) after \(fed) bytes")
        if !accepted {
            precondition(fed > ResponseHeadParser.maximumBytes, "refused before the limit")
            return 0
        }
        start = end
    }
    if let head = parser.head {
        precondition((0...999).contains(head.status), "status \(head.status) is not three digits")
        _ = head.mergedFields
        _ = head.value(of: "content-length")
    } else {
        precondition(!parser.isComplete, "a complete head that does not exist")
    }
    return 0
}
