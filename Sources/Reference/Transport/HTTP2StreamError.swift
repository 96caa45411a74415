import Foundation

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
        guard message.hasSuffix(")"), let marker = message.range(of: "(err ", options: .backwards) else { return nil }
        let digits = message[marker.upperBound..<message.index(before: message.endIndex)]
        // Digits only: `UInt32` alone would take a leading `+`. It refuses a value past 32 bits.
        guard digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber), let code = UInt32(digits) else { return nil }
        self.code = code
    }
}
