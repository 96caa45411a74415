import Foundation

/// libFuzzer entry point: what an HTTP/2 client sends after its connection preface, fed to the MockServer's
/// server session (libnghttp2 plus the Swift callbacks that keep requests), in two reads split where the input's
/// first byte says (the rest are the frames), with every complete request answered as the server would answer it.
///
/// Compiled by `Scripts/fuzz` with the session's sources and libnghttp2, outside SwiftPM. A trap, a leak or an
/// overflow, or a broken bound below, is a finding: the server must survive any client frames.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTP2Session(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let bytes = Array(input.dropFirst())
    guard let session = HTTP2Session(maximumBodySize: 4096) else { return 0 }
    let preface = Array("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".utf8)
    let split = input.first.map { Int($0) % (bytes.count + 1) } ?? 0
    for part in [preface + bytes[..<split], Array(bytes[split...])] {
        guard let events = session.receive(part) else { break }
        for case .requestEnded(let stream) in events where session.isOpen(stream) {
            let body = HTTP2Session.Body(bytes: Array("fuzzed".utf8), cut: nil, frameSizes: [2, 4], throttle: nil)
            session.submitHeaders(stream, fields: [(":status", "200"), ("content-type", "text/plain")], body: body, final: true)
        }
        guard session.pendingOutput() != nil else { break }
    }
    for (stream, request) in session.requests {
        precondition(stream > 0 && stream % 2 == 1, "a request on stream \(stream), which no client may open")
        precondition(request.body.count <= 4096, "a request body of \(request.body.count) bytes past the limit")
        precondition(request.fieldBytes <= HTTP2Session.maximumFieldBytes + 64 * 1024, "a header block of \(request.fieldBytes) bytes kept")
    }
    return 0
}
