import NIOCore
import NIOTLS

/// Holds a new TLS connection until its handshake ends, then hands it on with the protocol ALPN chose; what ends it
/// before that (an alert, a close, no byte for the timeout) is a failure of the handshake.
///
/// The HTTP handlers come after it, once the protocol is known: HTTP/1.1's codec on the connection, or HTTP/2's
/// framing with a stream per request.
final class ConnectionStarter: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = NIOAny

    /// The protocol the server selected in ALPN; anything but `h2` (or nothing) is HTTP/1.1.
    enum Negotiated {
        case http1, http2
    }

    private let ready: (Negotiated, any Channel) throws -> Void
    private let failed: (any Error) -> Void
    private var isDone = false

    /// - Parameters:
    ///   - ready: called on the event loop once the handshake succeeded, to add the protocol's handlers; what it
    ///     throws fails the connection.
    ///   - failed: called once if the connection ends first.
    init(ready: @escaping (Negotiated, any Channel) throws -> Void, failed: @escaping (any Error) -> Void) {
        self.ready = ready
        self.failed = failed
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if !isDone, case .handshakeCompleted(let negotiated) = event as? TLSUserEvent {
            isDone = true
            do {
                try ready(negotiated == "h2" ? .http2 : .http1, context.channel)
                context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            } catch {
                failed(error)
                context.close(promise: nil)
            }
        } else if let idle = event as? IdleStateHandler.IdleStateEvent, idle == .all {
            fail(ResponseCollector.TimedOut(description: "no byte moved for the request's timeout interval"), context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        fail(error, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        fail(ChannelError.eof, context: context)
        context.fireChannelInactive()
    }

    private func fail(_ error: any Error, context: ChannelHandlerContext) {
        guard !isDone else { return }
        isDone = true
        failed(error)
        context.close(promise: nil)
    }
}
