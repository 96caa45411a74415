/// The HTTP/2 error code that closed a stream, as libcurl reports it for `CURLE_HTTP2_STREAM`.
///
/// libcurl 7.88 gives the code in its message alone (`HTTP/2 stream 1 was not closed cleanly: PROTOCOL_ERROR
/// (err 1)`): no `CURLINFO` carries it. So this one fact is read from the text, by its fixed `(err N)` suffix;
/// a message without it yields `nil`, and the failure keeps the generic mapping.
struct HTTP2StreamError: Equatable {
    let code: UInt32

    static let protocolError = HTTP2StreamError(code: 0x1)

    init(code: UInt32) { self.code = code }

    init?(libcurlMessage message: String) {
        let utf8 = Array(message.utf8)
        let marker = Array("(err ".utf8)
        guard utf8.last == UInt8(ascii: ")"), utf8.count > marker.count + 1,
            let start = (0...(utf8.count - marker.count - 1)).last(where: { utf8[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return nil }
        let digits = utf8[(start + marker.count)..<(utf8.count - 1)]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ (0x30...0x39).contains($0) }),
            let code = UInt32(String(decoding: digits, as: UTF8.self))
        else { return nil }
        self.code = code
    }
}
