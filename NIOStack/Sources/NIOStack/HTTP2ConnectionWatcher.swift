import NIOCore
import NIOHTTP2

/// The last handler of an HTTP/2 connection's pipeline: records a `GOAWAY` on the connection, and ends the connection
/// on an error of its own (a frame that breaks HTTP/2, a TLS alert), which NIO's HTTP/2 handler answers with a
/// `GOAWAY` but leaves open: its streams would otherwise wait for their timeouts (ERR-21). An error of one stream
/// ends that stream only.
final class HTTP2ConnectionWatcher: ChannelInboundHandler {
    typealias InboundIn = HTTP2Frame
    typealias InboundOut = HTTP2Frame

    private let connection: HTTP2Connection

    init(_ connection: HTTP2Connection) {
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .goAway(let lastStreamID, _, _) = unwrapInboundIn(data).payload {
            connection.receivedGoAway(lastStreamID: lastStreamID)
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        // swift-nio-http2 reports a stream's error here too, once it reset that stream: the other streams go on.
        guard !Self.isStreamScoped(error) else { return }
        connection.failed(error)
        context.close(promise: nil)
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
