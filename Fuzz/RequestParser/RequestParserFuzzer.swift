/// libFuzzer entry point: a request as the server reads it, head first, then a chunked body if it has one.
///
/// Compiled by `Scripts/fuzz` together with the parser sources, outside SwiftPM, because SwiftPM cannot
/// build a target with `-sanitize=fuzzer`. A trap, an overflow or a broken invariant below is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRequestParser(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard case .complete(let head) = HTTPRequestParser.parseHead(bytes) else { return 0 }
    precondition(head.length > 0 && head.length <= bytes.count, "head length \(head.length) outside the input")
    _ = head.path
    _ = head.wantsClose
    _ = head.expectsContinue
    switch head.framing {
    case .contentLength(let length):
        precondition(length > 0, "a zero or negative Content-Length must not frame a body")
    case .chunked:
        var decoder = ChunkedBodyDecoder(maximumBodySize: 4096)
        var index = head.length
        let status = decoder.decode(bytes, index: &index)
        checkInvariants(decoder, status: status, index: index, bytes: bytes)
    case .none:
        break
    }
    return 0
}
