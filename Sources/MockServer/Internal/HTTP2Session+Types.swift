/// What a session keeps and reports, and its limits: events, requests as they arrive, response bodies being sent.
extension HTTP2Session {
    /// The largest header block kept per request; past it the stream is refused, so no client can bloat the process.
    static let maximumFieldBytes = 64 * 1024
    /// The most SETTINGS parameters and stream resets a connection's journal keeps (the first ones), so that a
    /// flooding client cannot grow it without end.
    static let journaledFrames = 64
    /// Streams a client may open at once (`SETTINGS_MAX_CONCURRENT_STREAMS`); with the body limit it bounds memory.
    static let maximumConcurrentStreams: UInt32 = 32

    /// What the client's frames meant, in arrival order, for the connection to act on after each read.
    enum Event: Equatable {
        /// A request's `HEADERS` started: the moment before a request exists.
        case requestStarted(Int32)
        /// A request's header block is complete (a `requestEnded` follows at once when it carried `END_STREAM`).
        case requestHead(Int32)
        /// Body bytes arrived on a request stream.
        case requestData(Int32)
        /// The request's body is complete (`END_STREAM`).
        case requestEnded(Int32)
    }

    /// A request as it arrives: fields in order, the body so far.
    struct Request {
        var fields: [(name: String, value: String)] = []
        var fieldBytes = 0
        var body: [UInt8] = []
        var bodyTooLarge = false
    }

    /// A response body being sent: the bytes, how far they went, where a fault cuts them, and DATA frame sizes.
    struct Body {
        var bytes: [UInt8]
        var sent = 0
        var cut: Int?
        var frameSizes: [Int]
        var throttle: MockResponse.Throttle?
        /// Whether the cut was reached and the stream is held open for the fault.
        var held = false
    }
}
