/// What an HTTP/2 client told the server about the connection, in the order it arrived: the journal's record
/// of a client's side of the protocol, to check how it reacted to a fault.
public struct HTTP2ClientFrames: Sendable, Hashable {
    /// One parameter of a `SETTINGS` frame (RFC 9113 §6.5.2): its identifier and value.
    public struct Setting: Sendable, Hashable {
        /// The identifier (`0x3` `SETTINGS_MAX_CONCURRENT_STREAMS`, `0x4` `SETTINGS_INITIAL_WINDOW_SIZE`, …).
        public let identifier: Int
        /// The value.
        public let value: UInt32
    }

    /// A stream the client reset, and why.
    public struct StreamReset: Sendable, Hashable {
        /// The stream.
        public let streamID: Int
        /// The `RST_STREAM` error code.
        public let code: HTTP2ErrorCode
    }

    /// A `GOAWAY` frame the client sent.
    public struct GoAway: Sendable, Hashable {
        /// The last stream the client processed (for a client: the last pushed stream, normally 0).
        public let lastStreamID: Int
        /// Why the client is leaving: `NO_ERROR` when it just closes, a protocol error code when it refused
        /// something the server sent.
        public let code: HTTP2ErrorCode
    }

    /// The parameters of every non-ACK `SETTINGS` frame, in order.
    public internal(set) var settings: [Setting] = []
    /// The client's `RST_STREAM` frames, in order.
    public internal(set) var resets: [StreamReset] = []
    /// The client's `GOAWAY`, if it sent one.
    public internal(set) var goAway: GoAway?
    /// The bytes of the frames that carry requests (`HEADERS`, `CONTINUATION`, `DATA`), frame headers included: what
    /// of the client's bytes is a request, without the connection preface and the connection's own frames
    /// (`SETTINGS`, `WINDOW_UPDATE`, `PING`, …).
    public internal(set) var requestFrameBytes = 0

    init() {}
}
