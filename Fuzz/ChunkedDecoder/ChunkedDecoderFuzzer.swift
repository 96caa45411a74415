/// libFuzzer entry point: a chunked body (after one byte that picks a split point) decoded twice, whole and
/// fed in two parts, which must agree.
///
/// Compiled by `Scripts/fuzz` together with the decoder source, outside SwiftPM, because SwiftPM cannot
/// build a target with `-sanitize=fuzzer`. A trap, an overflow or a broken invariant below is a finding.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzChunkedDecoder(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    // The first byte chooses where the rest is split, so the fuzzer explores every split point.
    let split = Int(data[0]) % size
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: size - 1))
    var whole = ChunkedBodyDecoder(maximumBodySize: 4096)
    var wholeIndex = 0
    let wholeStatus = whole.decode(bytes, index: &wholeIndex)
    checkInvariants(whole, status: wholeStatus, index: wholeIndex, bytes: bytes)

    var parts = ChunkedBodyDecoder(maximumBodySize: 4096)
    var partsIndex = 0
    var partsStatus = parts.decode(Array(bytes[..<split]), index: &partsIndex)
    if partsStatus == .needMore { partsStatus = parts.decode(bytes, index: &partsIndex) }
    checkInvariants(parts, status: partsStatus, index: partsIndex, bytes: bytes)

    if case .invalid = wholeStatus {
        guard case .invalid = partsStatus else { preconditionFailure("split input: \(partsStatus), whole: \(wholeStatus)") }
    } else {
        precondition(partsStatus == wholeStatus, "split input: \(partsStatus), whole: \(wholeStatus)")
        precondition(parts.body == whole.body && parts.chunkSizes == whole.chunkSizes, "split input decoded differently")
    }
    return 0
}
