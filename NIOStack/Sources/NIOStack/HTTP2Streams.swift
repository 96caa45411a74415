import NIOCore
import NIOHPACK
import NIOHTTP2

/// The last handler of an HTTP/2 connection's pipeline: opens each request's stream and reads every stream's frames
/// on the connection itself, with no channel per stream (a stream channel and its pipeline per request cost the
/// stack a quarter of its HTTP/2 rate). It gives back flow-control credit as data arrives, times out streams on which
/// nothing moved, records a `GOAWAY` on the connection, and ends the connection on an error of its own (a frame
/// that breaks HTTP/2, a TLS alert), which NIO's HTTP/2 handler answers with a `GOAWAY` but leaves open: its streams
/// would otherwise wait for their timeouts (ERR-21). An error of one stream ends that stream only.
final class HTTP2Streams: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundOut = HTTP2Frame

    /// The stream could not start: nothing of its request was sent.
    struct NotOpened: Error {}

    /// HTTP/2 refused to send the request as it is (a field or a length its rules forbid): sending it again anywhere
    /// would meet the same refusal.
    struct Unsendable: Error {
        let cause: any Error
    }

    /// The receive window kept open for each stream and for the connection: HTTP/2's initial window, which the client
    /// announces no other value for.
    private static let window = 65_535

    /// The connection's bookkeeping (weak: the connection holds this handler).
    weak var connection: HTTP2Connection?
    private var context: ChannelHandlerContext?
    private var streams: [HTTP2StreamID: HTTP2Stream] = [:]
    private var nextStreamID = HTTP2StreamID(1)
    /// The connection's one idle timer, and when it fires.
    private var idleCheck: (deadline: NIODeadline, task: Scheduled<Void>)?
    /// Streams HTTP/2 closed with an error code before their exchange ended, and the error swift-nio-http2 reported
    /// for a stream it reset (before or after the closing, and without saying which stream): both are matched once
    /// the loop's turn is over, so that an error never outlives the turn it came in.
    private var closedWithError: [(stream: HTTP2Stream, code: HTTP2ErrorCode)] = []
    private var streamError: (any Error)?
    private var isMatchingErrors = false

    func handlerAdded(context: ChannelHandlerContext) {
        self.context = context
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        self.context = nil
    }

    /// Opens a stream for a request: its `HEADERS` (and `DATA` when it has a body) are written at once. Returns `nil`
    /// when the connection can start no stream; otherwise `finish` is told once how the exchange ended, unless
    /// ``reset(_:)`` came first.
    func open(
        _ fields: HPACKHeaders, body: ByteBuffer?, idleTimeout: TimeAmount, maximumSize: Int,
        finish: @escaping (ResponseCollector.Ending, HTTP2StreamID) -> Void
    ) -> HTTP2StreamID? {
        guard let context, context.channel.isActive, Int(nextStreamID) < Int(HTTP2StreamID.maxID) else { return nil }
        let id = nextStreamID
        nextStreamID = HTTP2StreamID(Int(id) + 2)
        let stream = HTTP2Stream(id: id, sendsBody: body != nil, idleTimeout: idleTimeout, maximumSize: maximumSize) { finish($0, id) }
        streams[id] = stream
        connection?.streamOpened()
        checkIdle(by: stream.idleDeadline, context: context)
        let sent = context.eventLoop.makePromise(of: Void.self)
        sent.futureResult.assumeIsolated().whenFailure { [weak self] error in
            // Nothing of the request left: when the connection was closing under it, it may go elsewhere as it is.
            guard let self, let stream = self.streams.removeValue(forKey: id) else { return }
            stream.fail(Self.isClosing(error) ? NotOpened() : Unsendable(cause: error))
            self.connection?.streamClosed()
        }
        let headers = HTTP2Frame(streamID: id, payload: .headers(.init(headers: fields, endStream: body == nil)))
        if let body {
            context.write(wrapOutboundOut(headers), promise: sent)
            context.writeAndFlush(
                wrapOutboundOut(HTTP2Frame(streamID: id, payload: .data(.init(data: .byteBuffer(body), endStream: true)))), promise: nil)
        } else {
            context.writeAndFlush(wrapOutboundOut(headers), promise: sent)
        }
        return id
    }

    /// Stops a stream its exchange no longer wants (a cancel, the resource limit): `RST_STREAM` with `CANCEL`.
    func reset(_ id: HTTP2StreamID) {
        guard let stream = streams[id], !stream.wasReset, let context else { return }
        stream.abandon()
        stream.wasReset = true
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: id, payload: .rstStream(.cancel))), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if case .goAway(let lastStreamID, _, _) = frame.payload {
            connection?.receivedGoAway(lastStreamID: lastStreamID)
        }
        guard frame.streamID != .rootStream, let stream = streams[frame.streamID], !stream.isFinished else { return }
        // A stream HTTP/2 may not have closed: a failure, a request whose body flow control may still hold back, or an
        // exchange that ended before the server ended the stream.
        if stream.receive(frame.payload), stream.hasFailed || stream.sendsBody || !frame.payload.endsStream {
            resetIfOpen(stream, context: context)
        }
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        switch event {
        // The most frequent event first: each `case` costs a dynamic cast.
        case let window as NIOHTTP2WindowUpdatedEvent:
            // Credit back once half the window is spent, for the connection and for a stream still receiving.
            guard let size = window.inboundWindowSize, size <= Self.window / 2,
                window.streamID == .rootStream || streams[window.streamID].map({ !$0.isFinished }) == true
            else { return }
            let update = HTTP2Frame(streamID: window.streamID, payload: .windowUpdate(windowSizeIncrement: Self.window - size))
            context.writeAndFlush(wrapOutboundOut(update), promise: nil)
        case let closed as StreamClosedEvent:
            guard let stream = streams.removeValue(forKey: closed.streamID) else { return }
            connection?.streamClosed()
            guard !stream.isFinished else { return }
            guard let code = closed.reason else { return stream.fail(ChannelError.eof) }
            closedWithError.append((stream, code))
            matchErrorsOnceTheTurnIsOver(context: context)
        default:
            context.fireUserInboundEventTriggered(event)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // A frame of ours HTTP/2 refused to send, which concerns its stream alone (a request's HEADERS failed their
        // write too, which ended its stream already).
        if let refused = error as? NIOHTTP2Errors.StreamError {
            guard let stream = streams[refused.streamID], !stream.isFinished else { return }
            stream.fail(Unsendable(cause: refused.baseError))
            return resetIfOpen(stream, context: context)
        }
        // swift-nio-http2 reports a stream's error here too, once it reset that stream: the other streams go on.
        if Self.isStreamScoped(error) {
            streamError = error
            return matchErrorsOnceTheTurnIsOver(context: context)
        }
        connection?.failed(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        idleCheck?.task.cancel()
        idleCheck = nil
        let open = streams.values
        streams = [:]
        for stream in open {
            stream.fail(ChannelError.eof)
            connection?.streamClosed()
        }
        context.fireChannelInactive()
    }

    private func matchErrorsOnceTheTurnIsOver(context: ChannelHandlerContext) {
        guard !isMatchingErrors else { return }
        isMatchingErrors = true
        context.eventLoop.assumeIsolated().execute { [weak self] in self?.matchErrors() }
    }

    /// Fails each stream closed with an error code: with the error reported in the same turn when it is the only such
    /// stream and swift-nio-http2 reset it as malformed (`PROTOCOL_ERROR`), otherwise with its code (`REFUSED_STREAM`,
    /// `CANCEL`, …): a stream the server reset never takes the error of another.
    private func matchErrors() {
        let error = closedWithError.count == 1 && closedWithError[0].code == .protocolError ? streamError : nil
        let closed = closedWithError
        (closedWithError, streamError, isMatchingErrors) = ([], nil, false)
        for (stream, code) in closed {
            stream.fail(error ?? NIOHTTP2Errors.streamClosed(streamID: stream.id, errorCode: code))
        }
    }

    /// Checks the streams' idle timeouts when the earliest is due: one timer for the connection, moved only when a
    /// stream opens with an earlier deadline, so that a request costs no timer of its own.
    private func checkIdle(by deadline: NIODeadline, context: ChannelHandlerContext) {
        if let check = idleCheck, check.deadline <= deadline { return }
        idleCheck?.task.cancel()
        let task = context.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [weak self] in
            self?.idleCheck = nil
            self?.timeOutIdleStreams()
        }
        idleCheck = (deadline, task)
    }

    /// Fails the streams on which nothing moved for their timeout, and watches the others.
    private func timeOutIdleStreams() {
        guard let context else { return }
        let now = NIODeadline.now()
        var next: NIODeadline?
        for stream in Array(streams.values) where !stream.isFinished {
            let due = stream.idleDeadline
            guard due <= now else {
                next = min(next ?? due, due)
                continue
            }
            stream.fail(ResponseCollector.TimedOut(description: "no byte moved for the request's timeout interval"))
            resetIfOpen(stream, context: context)
        }
        if let next { checkIdle(by: next, context: context) }
    }

    /// After a stream's exchange ended: a stream HTTP/2 has not closed yet is reset, once the events of the frame that
    /// ended it are read (one turn of the loop later), so that a stream the server ended is never reset. A GET's
    /// stream that got its whole response is closed already.
    private func resetIfOpen(_ stream: HTTP2Stream, context: ChannelHandlerContext) {
        let id = stream.id
        context.eventLoop.assumeIsolated().execute { [weak self] in
            guard let self, self.streams[id] === stream else { return }
            self.reset(id)
        }
    }

    /// Whether a write failed because the connection could start no stream (closed, or closing after a `GOAWAY`),
    /// rather than because HTTP/2 refused the frame itself.
    static func isClosing(_ error: any Error) -> Bool {
        switch error {
        case ChannelError.ioOnClosedChannel, ChannelError.eof, ChannelError.alreadyClosed, is NIOHTTP2Errors.StreamClosed,
            is NIOHTTP2Errors.CreatedStreamAfterGoaway:
            return true
        case let error as NIOHTTP2Errors.StreamError:
            return isClosing(error.baseError)
        default:
            return false
        }
    }

    /// Whether the error is one stream's response breaking HTTP's rules (RFC 9113 §8.1.1), which ends that stream
    /// alone, rather than the connection breaking HTTP/2 (a frame for a stream that was never opened is the latter,
    /// RFC 9113 §5.1).
    static func isStreamScoped(_ error: any Error) -> Bool {
        switch error {
        case is NIOHTTP2Errors.MissingPseudoHeader, is NIOHTTP2Errors.DuplicatePseudoHeader,
            is NIOHTTP2Errors.PseudoHeaderAfterRegularHeader, is NIOHTTP2Errors.UnknownPseudoHeader,
            is NIOHTTP2Errors.UnsupportedPseudoHeader, is NIOHTTP2Errors.InvalidPseudoHeaders,
            is NIOHTTP2Errors.InvalidPseudoHeaderValue, is NIOHTTP2Errors.InvalidStatusValue,
            is NIOHTTP2Errors.TrailersWithoutEndStream, is NIOHTTP2Errors.ForbiddenHeaderField,
            is NIOHTTP2Errors.ContentLengthViolated, is NIOHTTP2Errors.ContentLengthHeadersMismatch,
            is NIOHTTP2Errors.ContentLengthHeaderNegative, is NIOHTTP2Errors.ContentLengthHeaderMalformedValue:
            return true
        default:
            return false
        }
    }
}

extension HTTP2Frame.FramePayload {
    /// Whether the frame carries `END_STREAM`.
    fileprivate var endsStream: Bool {
        switch self {
        case .headers(let headers): headers.endStream
        case .data(let data): data.endStream
        default: false
        }
    }
}
