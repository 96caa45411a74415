internal import CNghttp2
import Foundation

/// The server side of one HTTP/2 connection's framing, on libnghttp2: bytes in, events out; responses in, bytes out.
///
/// It owns no socket: the connection feeds it what it read and writes what it hands back, so the whole protocol
/// state lives in nghttp2 and the few tables here. Only the connection's thread touches it. Its events, request and
/// body types and its limits are in `HTTP2Session+Types.swift`.
final class HTTP2Session {
    private var session: OpaquePointer?
    private let maximumBodySize: Int
    private(set) var events: [Event] = []
    var requests: [Int32: Request] = [:]
    var bodies: [Int32: Body] = [:]
    /// Streams whose body reached its cut: the fault fires once the bytes before it are on the wire.
    private(set) var cutStreams: [Int32] = []
    private(set) var clientFrames = HTTP2ClientFrames()
    /// Streams that get no more flow-control window: nghttp2 is never told their bytes were consumed.
    private var frozen = false
    /// Streams whose body the server stopped reading (a stall): their data is never consumed, so their window closes.
    private var held: Set<Int32> = []
    /// What `send` gathered for one write, and where it writes (set only while `send` runs).
    private var outbox: [UInt8] = []
    private var writer: (([UInt8]) -> Bool)?
    /// Paces throttled bodies; returns false when the server shuts down.
    var sleep: (Duration) -> Bool = { _ in true }

    init?(maximumBodySize: Int) {
        self.maximumBodySize = maximumBodySize
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return nil }
        defer { nghttp2_session_callbacks_del(callbacks) }
        Self.install(callbacks)
        var option: OpaquePointer?
        guard nghttp2_option_new(&option) == 0, let option else { return nil }
        defer { nghttp2_option_del(option) }
        // A flood of PINGs or SETTINGS would otherwise queue acknowledgements without end.
        nghttp2_option_set_max_outbound_ack(option, 1000)
        nghttp2_option_set_max_settings(option, 64)
        // nghttp2 would silently drop a response head over 64 KiB; a test of a client's head limit needs more.
        nghttp2_option_set_max_send_header_block_length(option, 16 * 1024 * 1024)
        // Window is granted by hand as body bytes arrive, so a fault can stop granting it (zeroWindow).
        nghttp2_option_set_no_auto_window_update(option, 1)
        // nghttp2 otherwise keeps closed streams for the priority tree, where `isOpen` would still find them: a fault
        // that waits for its stream to end (`afterResponse`) would wait for the client's next frame.
        nghttp2_option_set_no_closed_streams(option, 1)
        var created: OpaquePointer?
        guard nghttp2_session_server_new2(&created, callbacks, Unmanaged.passUnretained(self).toOpaque(), option) == 0 else {
            return nil
        }
        session = created
        let settings = [
            nghttp2_settings_entry(
                settings_id: Int32(NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS.rawValue), value: Self.maximumConcurrentStreams)
        ]
        _ = settings.withUnsafeBufferPointer {
            nghttp2_submit_settings(created, UInt8(NGHTTP2_FLAG_NONE.rawValue), $0.baseAddress, $0.count)
        }
    }

    deinit {
        nghttp2_session_del(session)
    }

    // MARK: Bytes in and out

    /// Feeds what the client sent; returns the events it caused, or nil when nghttp2 found the connection unusable.
    func receive(_ bytes: [UInt8]) -> [Event]? {
        events.removeAll(keepingCapacity: true)
        let consumed = bytes.withUnsafeBufferPointer { nghttp2_session_mem_recv(session, $0.baseAddress, $0.count) }
        return consumed < 0 ? nil : events
    }

    /// Hands `write` what nghttp2 wants on the wire now (frames, acknowledgements, DATA as flow control allows), in
    /// one piece, except that a throttled body's bytes go out before each of its pauses; false when nghttp2 failed
    /// or `write` did.
    func send(_ write: ([UInt8]) -> Bool) -> Bool {
        withoutActuallyEscaping(write) { write in
            writer = write
            defer { writer = nil }
            while true {
                var chunk: UnsafePointer<UInt8>?
                let count = nghttp2_session_mem_send(session, &chunk)
                if count < 0 { return false }
                guard count > 0, let chunk else { break }
                outbox.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
            }
            return flushOutbox()
        }
    }

    /// Writes what `send` gathered so far; false when the write failed.
    private func flushOutbox() -> Bool {
        defer { outbox.removeAll(keepingCapacity: true) }
        return outbox.isEmpty || writer?(outbox) ?? false
    }

    /// All the bytes nghttp2 wants on the wire now, at once; `nil` when it failed.
    func pendingOutput() -> [UInt8]? {
        var output: [UInt8] = []
        return send {
            output += $0; return true
        } ? output : nil
    }

    /// Whether the server's side of the stream is done: its response's last frame went out, or the stream is gone.
    func isAnswered(_ stream: Int32) -> Bool {
        !isOpen(stream) || nghttp2_session_get_stream_local_close(session, stream) == 1
    }

    /// Takes the streams whose cut was reached since the last call.
    func takeCutStreams() -> [Int32] {
        defer { cutStreams.removeAll() }
        return cutStreams
    }

    // MARK: Submitting

    /// Sends informational (`1xx`) or final headers, with a body when `body` is given; `ends` the stream when there is none.
    func submitHeaders(_ stream: Int32, fields: [(name: String, value: String)], body: Body?, final: Bool) {
        if let body { bodies[stream] = body }
        Self.withFields(fields) { fields, count in
            guard final else {
                _ = nghttp2_submit_headers(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, nil, fields, count, nil)
                return
            }
            guard body != nil else {
                _ = nghttp2_submit_response(session, stream, fields, count, nil)
                return
            }
            var provider = nghttp2_data_provider()
            provider.read_callback = { session, stream, buffer, length, flags, _, user in
                guard let user, let buffer, let flags else { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
                return Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue().readBody(stream, into: buffer, length, flags)
            }
            _ = nghttp2_submit_response(session, stream, fields, count, &provider)
        }
    }

    /// Resets a stream with a code.
    func submitReset(_ stream: Int32, code: HTTP2ErrorCode) {
        _ = nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, code.rawValue)
    }

    /// Says GOAWAY: streams above `lastStreamID` were not and will not be processed.
    func submitGoAway(lastStreamID: Int32, code: HTTP2ErrorCode) {
        _ = nghttp2_submit_goaway(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), lastStreamID, code.rawValue, nil, 0)
    }

    /// Sends `SETTINGS_INITIAL_WINDOW_SIZE` 0 and grants no window from now on, so the client may send no more body
    /// bytes on any stream.
    /// Stops reading one stream's body: its flow-control window is never opened again.
    func hold(_ stream: Int32) { held.insert(stream) }

    func submitZeroWindow() {
        frozen = true
        let zero = [nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 0)]
        _ = zero.withUnsafeBufferPointer { nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), $0.baseAddress, $0.count) }
    }

    /// Lets a body held at its fault's cut go on to its end, for a fault that lets the response finish.
    func release(_ stream: Int32) {
        guard var body = bodies[stream], body.cut != nil else { return }
        body.cut = nil
        bodies[stream] = body
        if body.held { _ = nghttp2_session_resume_data(session, stream) }
    }

    /// Whether nghttp2 still holds the stream (it is forgotten once both sides ended it or it was reset).
    func isOpen(_ stream: Int32) -> Bool { nghttp2_session_find_stream(session, stream) != nil }

    // MARK: Callbacks

    private func readBody(_ stream: Int32, into buffer: UnsafeMutablePointer<UInt8>, _ length: Int, _ flags: UnsafeMutablePointer<UInt32>)
        -> Int
    {
        guard var body = bodies[stream] else {
            flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
            return 0
        }
        defer { bodies[stream] = body }
        let limit = min(body.cut ?? body.bytes.count, body.bytes.count)
        if body.sent >= limit {
            guard body.cut != nil else {
                flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue
                return 0
            }
            // The fault's moment: the stream stays open (no END_STREAM) and the connection acts on it once.
            if !body.held {
                body.held = true
                cutStreams.append(stream)
            }
            return Int(NGHTTP2_ERR_DEFERRED.rawValue)
        }
        var count = min(length, limit - body.sent)
        if let size = body.frameSizes.first {
            count = min(count, size)
            if body.frameSizes.count > 1 { body.frameSizes.removeFirst() }
        }
        if let throttle = body.throttle {
            count = min(count, throttle.bytes)
            // The bytes so far reach the client before the pause, so it sees the body trickle, not wait then burst.
            if body.sent > 0, !flushOutbox() || !sleep(throttle.interval) { return Int(NGHTTP2_ERR_CALLBACK_FAILURE.rawValue) }
        }
        body.bytes.withUnsafeBufferPointer { buffer.update(from: $0.baseAddress! + body.sent, count: count) }
        body.sent += count
        if body.sent == body.bytes.count, body.cut == nil { flags.pointee |= NGHTTP2_DATA_FLAG_EOF.rawValue }
        return count
    }

    private static func install(_ callbacks: OpaquePointer) {
        nghttp2_session_callbacks_set_on_begin_frame_callback(callbacks) { _, header, user in
            guard let header, let user else { return 0 }
            // DATA, HEADERS and CONTINUATION carry requests; the rest is the connection's own business.
            if [0x0, 0x1, 0x9].contains(header.pointee.type) {
                Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue().clientFrames.requestFrameBytes += 9 + header.pointee.length
            }
            return 0
        }
        nghttp2_session_callbacks_set_on_begin_headers_callback(callbacks) { _, frame, user in
            guard let frame, let user, frame.pointee.hd.type == UInt8(NGHTTP2_HEADERS.rawValue),
                frame.pointee.headers.cat == NGHTTP2_HCAT_REQUEST
            else { return 0 }
            let session = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            session.requests[frame.pointee.hd.stream_id] = Request()
            session.events.append(.requestStarted(frame.pointee.hd.stream_id))
            return 0
        }
        nghttp2_session_callbacks_set_on_header_callback(callbacks) { _, frame, name, nameLength, value, valueLength, _, user in
            guard let frame, let user, let name, let value else { return 0 }
            let session = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            let stream = frame.pointee.hd.stream_id
            guard var request = session.requests[stream] else { return 0 }
            request.fieldBytes += nameLength + valueLength + 32
            // Refuse the stream rather than keep an unbounded header block (nghttp2 answers RST_STREAM).
            guard request.fieldBytes <= HTTP2Session.maximumFieldBytes else { return Int32(NGHTTP2_ERR_TEMPORAL_CALLBACK_FAILURE.rawValue) }
            request.fields.append(
                (
                    String(decoding: UnsafeBufferPointer(start: name, count: nameLength), as: UTF8.self),
                    String(decoding: UnsafeBufferPointer(start: value, count: valueLength), as: UTF8.self)
                ))
            session.requests[stream] = request
            return 0
        }
        nghttp2_session_callbacks_set_on_data_chunk_recv_callback(callbacks) { _, _, stream, data, length, user in
            guard let user, let data else { return 0 }
            let session = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            guard var request = session.requests[stream] else { return 0 }
            if request.body.count + length > session.maximumBodySize {
                request.bodyTooLarge = true
            } else {
                request.body.append(contentsOf: UnsafeBufferPointer(start: data, count: length))
            }
            session.requests[stream] = request
            session.events.append(.requestData(stream))
            if !session.frozen, !session.held.contains(stream) { nghttp2_session_consume(session.session, stream, length) }
            return 0
        }
        nghttp2_session_callbacks_set_on_frame_recv_callback(callbacks) { _, frame, user in
            guard let frame, let user else { return 0 }
            Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue().received(frame.pointee)
            return 0
        }
        nghttp2_session_callbacks_set_on_stream_close_callback(callbacks) { _, stream, _, user in
            guard let user else { return 0 }
            let session = Unmanaged<HTTP2Session>.fromOpaque(user).takeUnretainedValue()
            // The request was recorded (or never will be) by the time its stream closes: nothing is kept past it.
            session.bodies[stream] = nil
            session.requests[stream] = nil
            return 0
        }
    }

    private func received(_ frame: nghttp2_frame) {
        let stream = frame.hd.stream_id
        let endsStream = frame.hd.flags & UInt8(NGHTTP2_FLAG_END_STREAM.rawValue) != 0
        switch Int(frame.hd.type) {
        case Int(NGHTTP2_HEADERS.rawValue) where requests[stream] != nil && frame.headers.cat == NGHTTP2_HCAT_REQUEST:
            events.append(.requestHead(stream))
            if endsStream { events.append(.requestEnded(stream)) }
        case Int(NGHTTP2_HEADERS.rawValue) where endsStream && requests[stream] != nil,
            Int(NGHTTP2_DATA.rawValue) where endsStream && requests[stream] != nil:
            events.append(.requestEnded(stream))
        case Int(NGHTTP2_SETTINGS.rawValue) where frame.hd.flags & UInt8(NGHTTP2_FLAG_ACK.rawValue) == 0:
            for index in 0..<frame.settings.niv where clientFrames.settings.count < Self.journaledFrames {
                let entry = frame.settings.iv[index]
                clientFrames.settings.append(.init(identifier: Int(entry.settings_id), value: entry.value))
            }
        case Int(NGHTTP2_RST_STREAM.rawValue) where clientFrames.resets.count < Self.journaledFrames:
            clientFrames.resets.append(.init(streamID: Int(stream), code: HTTP2ErrorCode(rawValue: frame.rst_stream.error_code)))
        case Int(NGHTTP2_GOAWAY.rawValue):
            clientFrames.goAway = .init(
                lastStreamID: Int(frame.goaway.last_stream_id), code: HTTP2ErrorCode(rawValue: frame.goaway.error_code))
        default:
            break
        }
    }

}
