import Testing

@testable import Reference

@Suite("The HTTP/2 stream error in libcurl's message")
struct HTTP2StreamErrorTests {
    @Test("the code is read from the (err N) suffix")
    func theCodeIsReadFromTheErrNSuffix() {
        let error = HTTP2StreamError(libcurlMessage: "HTTP/2 stream 1 was not closed cleanly: PROTOCOL_ERROR (err 1)")
        #expect(error == .protocolError)
        #expect(HTTP2StreamError(libcurlMessage: "HTTP/2 stream 3 was not closed cleanly: CANCEL (err 8)")?.code == 8)
    }

    @Test(
        "a message without a well-formed suffix yields nothing",
        arguments: ["", "(err )", "stream reset (err 1", "(err 99999999999)", "(err -1)", "(err 1) trailing", "(err x)"])
    func aMessageWithoutAWellFormedSuffixYieldsNothing(message: String) {
        #expect(HTTP2StreamError(libcurlMessage: message) == nil)
    }
}
