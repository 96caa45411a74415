/// A frame, or a bounded run of frames, that breaks HTTP/2 (RFC 9113) or abuses it, written raw because nghttp2
/// refuses to produce it: what a client must refuse, never follow or buffer without end.
///
/// Used through ``MockFault/Effect/http2Violation(_:)``. A well-framed response that is malformed (no `:status`, say)
/// is the response's own shape instead: ``MockResponse/Malformation``. New violations may be added; switch with a
/// `default`.
public struct HTTP2Violation: Sendable, Hashable, CustomStringConvertible {
    enum Base: Sendable, Hashable {
        case invalidSetting, hpackError, pushPromise, dataBeforeHeaders, windowOverflow, continuationFlood, pingFlood
        case settingsFlood, tableSizeOverflow, resetStorm, headersNeverEnd, goAwayStorm, continuationTrickle
    }
    let base: Base
    private init(_ base: Base) { self.base = base }

    /// A `SETTINGS` frame with `SETTINGS_ENABLE_PUSH` = 2, a value no endpoint may send (§6.5.2): `PROTOCOL_ERROR`.
    public static let invalidSetting = HTTP2Violation(.invalidSetting)
    /// Response `HEADERS` whose block refers to HPACK index 0, which does not exist: `COMPRESSION_ERROR`.
    public static let hpackError = HTTP2Violation(.hpackError)
    /// A `PUSH_PROMISE` on the request's stream, to a client that disabled push: `PROTOCOL_ERROR` (§8.4).
    public static let pushPromise = HTTP2Violation(.pushPromise)
    /// A `DATA` frame on the request's stream before any response `HEADERS`: `PROTOCOL_ERROR` (§8.1).
    public static let dataBeforeHeaders = HTTP2Violation(.dataBeforeHeaders)
    /// A connection `WINDOW_UPDATE` that takes the client's send window past 2^31-1: `FLOW_CONTROL_ERROR` (§6.9.1).
    public static let windowOverflow = HTTP2Violation(.windowOverflow)

    /// Response `HEADERS` without `END_HEADERS`, then 20 000 `CONTINUATION` frames of one header field each (about
    /// 700 KB of header block, never ended): a client must stop at its header limit, not buffer it all.
    public static let continuationFlood = HTTP2Violation(.continuationFlood)
    /// 50 000 `PING` frames at once (850 KB), each asking for an acknowledgement, and no response.
    public static let pingFlood = HTTP2Violation(.pingFlood)
    /// 50 000 empty `SETTINGS` frames at once (450 KB), each asking for an acknowledgement, and no response.
    public static let settingsFlood = HTTP2Violation(.settingsFlood)
    /// Response `HEADERS` whose block opens with an HPACK dynamic table size update to 1 000 000 bytes, past the
    /// 4 096 the client allowed (`SETTINGS_HEADER_TABLE_SIZE`): a table that would grow without the client's consent,
    /// `COMPRESSION_ERROR` (RFC 7541 §6.3).
    public static let tableSizeOverflow = HTTP2Violation(.tableSizeOverflow)
    /// 1 000 `RST_STREAM` frames for streams the client never opened (odd IDs from 3): a reset of an idle stream is a
    /// connection error, `PROTOCOL_ERROR` (§6.4).
    public static let resetStorm = HTTP2Violation(.resetStorm)
    /// Response `HEADERS` without `END_HEADERS`, then nothing: a header block that never ends and never grows, which
    /// only the client's timeout ends.
    public static let headersNeverEnd = HTTP2Violation(.headersNeverEnd)
    /// 1 000 `GOAWAY` frames (`NO_ERROR`, the request's stream as the last one processed, 1 000 bytes of debug data
    /// each: about 1 MB), and then silence on a connection left open: the client learns nothing new after the first,
    /// and must neither buffer the rest nor wait past its timeout for a response that never comes.
    public static let goAwayStorm = HTTP2Violation(.goAwayStorm)
    /// Response `HEADERS` without `END_HEADERS`, then one `CONTINUATION` frame of one 16-byte field every 25 ms, 400 of
    /// them (10 s), never ending the block: each frame is small and none is late, so neither a header limit nor an idle
    /// timeout stops it; only a limit on the whole attempt does.
    public static let continuationTrickle = HTTP2Violation(.continuationTrickle)

    /// The violation's stable name (`invalidSetting`, `hpackError`, …).
    public var description: String {
        switch base {
        case .invalidSetting: "invalidSetting"
        case .hpackError: "hpackError"
        case .pushPromise: "pushPromise"
        case .dataBeforeHeaders: "dataBeforeHeaders"
        case .windowOverflow: "windowOverflow"
        case .continuationFlood: "continuationFlood"
        case .pingFlood: "pingFlood"
        case .settingsFlood: "settingsFlood"
        case .tableSizeOverflow: "tableSizeOverflow"
        case .resetStorm: "resetStorm"
        case .headersNeverEnd: "headersNeverEnd"
        case .goAwayStorm: "goAwayStorm"
        case .continuationTrickle: "continuationTrickle"
        }
    }

    /// The frame's bytes on the wire, for the request's stream (`stream` is 1 when no request exists yet).
    func frame(stream: Int32) -> [UInt8] {
        switch base {
        case .invalidSetting: Self.frame(type: 0x4, flags: 0, stream: 0, payload: [0x00, 0x02, 0x00, 0x00, 0x00, 0x02])
        case .hpackError: Self.frame(type: 0x1, flags: 0x4, stream: stream, payload: [0x80])
        // Promised stream 2, then `:method GET`, `:scheme https`, `:path /`, `:authority a` (HPACK, RFC 7541).
        case .pushPromise: Self.frame(type: 0x5, flags: 0x4, stream: stream, payload: [0, 0, 0, 2, 0x82, 0x87, 0x84, 0x41, 0x01, 0x61])
        case .dataBeforeHeaders: Self.frame(type: 0x0, flags: 0x1, stream: stream, payload: Array("early".utf8))
        case .windowOverflow: Self.frame(type: 0x8, flags: 0, stream: 0, payload: [0x7F, 0xFF, 0xFF, 0xFF])
        case .continuationFlood:
            // `:status: 200` (static index 8), then `x-flood: 0123456789abcdef` as a literal with a new name, each time.
            Self.frame(type: 0x1, flags: 0, stream: stream, payload: [0x88]) + Self.repeated(Self.continuation(stream: stream), 20_000)
        case .pingFlood: Self.repeated(Self.frame(type: 0x6, flags: 0, stream: 0, payload: Array(repeating: 0, count: 8)), 50_000)
        case .settingsFlood: Self.repeated(Self.frame(type: 0x4, flags: 0, stream: 0, payload: []), 50_000)
        // A size update to 1 000 000 (prefix 0x3F, then 999 969 as a varint), then `:status: 200` (static index 8).
        case .tableSizeOverflow: Self.frame(type: 0x1, flags: 0x4, stream: stream, payload: [0x3F, 0xA1, 0x84, 0x3D, 0x88])
        case .resetStorm:
            (0..<1000).flatMap { index in
                // CANCEL (0x8) on streams 3, 5, 7, …: never opened by the client that asked on stream 1.
                Self.frame(type: 0x3, flags: 0, stream: Int32(3 + 2 * index), payload: [0, 0, 0, 0x8])
            }
        case .headersNeverEnd, .continuationTrickle: Self.frame(type: 0x1, flags: 0, stream: stream, payload: [0x88])
        case .goAwayStorm:
            Self.repeated(
                Self.frame(
                    type: 0x7, flags: 0, stream: 0,
                    payload: Self.bigEndian(UInt32(bitPattern: stream)) + [0, 0, 0, 0] + Array(repeating: UInt8(ascii: "g"), count: 1000)),
                1000)
        }
    }

    /// What follows ``frame(stream:)`` a frame at a time, with a pause before each: `nil` when everything goes at once.
    func trickle(stream: Int32) -> (frame: [UInt8], count: Int, interval: Duration)? {
        guard base == .continuationTrickle else { return nil }
        return (Self.continuation(stream: stream), 400, .milliseconds(25))
    }

    /// A `CONTINUATION` without `END_HEADERS` holding `x-flood: 0123456789abcdef`, a literal with a new name.
    private static func continuation(stream: Int32) -> [UInt8] {
        frame(type: 0x9, flags: 0, stream: stream, payload: [0x00, 0x07] + Array("x-flood".utf8) + [0x10] + Array("0123456789abcdef".utf8))
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    /// `count` copies of a frame, appended whole so that even a debug build makes a flood in a millisecond.
    private static func repeated(_ frame: [UInt8], _ count: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(frame.count * count)
        for _ in 0..<count { bytes.append(contentsOf: frame) }
        return bytes
    }

    /// A frame: 24-bit length, type, flags, 31-bit stream ID, payload (RFC 9113 §4.1).
    static func frame(type: UInt8, flags: UInt8, stream: Int32, payload: [UInt8]) -> [UInt8] {
        let length = payload.count
        return [UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF), type, flags]
            + bigEndian(UInt32(bitPattern: stream) & 0x7FFF_FFFF) + payload
    }
}
