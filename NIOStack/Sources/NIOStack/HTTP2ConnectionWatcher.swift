import NIOCore
import NIOHTTP2

/// The last handler of an HTTP/2 connection's pipeline: records a `GOAWAY` on the connection, and ends the connection
/// on an error of its own (a frame that breaks HTTP/2, a TLS alert), which NIO's HTTP/2 handler answers with a
/// `GOAWAY` but leaves open: its streams would otherwise wait for their timeouts (ERR-21).
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
        connection.failed(error)
        context.close(promise: nil)
    }
}
