import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1

/// The last handler of an HTTP/1.1 connection's pipeline for one request: writes the request once the channel is
/// active (at once on a reused connection), gathers the response, and reports how the exchange ended exactly once. Then it closes the channel, or leaves the pipeline when the connection is kept for
/// the next request.
final class ResponseCollector: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPClientRequestPart

    /// How one connection ended.
    enum Ending {
        case response(HTTPResponseHead, body: ByteBuffer?)
        /// The error, and whether any response head had arrived.
        case failure(any Error, answered: Bool)
    }

    /// The body grew past the configured limit.
    struct TooLarge: Error {}
    /// The response heads, interim ones included, passed ``maximumHeadBytes``.
    struct HeadsTooLarge: Error {}

    /// The bytes all heads of one response may take, as the reference stack counts them (256 KiB).
    static let maximumHeadBytes = 256 * 1024
    /// No byte moved for the request's timeout interval, or the attempt passed the resource limit.
    struct TimedOut: Error, CustomStringConvertible {
        let description: String
    }

    private let head: HTTPRequestHead
    private let body: Data?
    /// Told how the exchange ended; answers whether the connection is kept for another request.
    private let finish: (Ending, any Channel) -> Bool
    private var requestSent = false
    private var response: ResponseAssembly
    private var finished = false

    init(head: HTTPRequestHead, body: Data?, maximumSize: Int, finish: @escaping (Ending, any Channel) -> Bool) {
        self.head = head
        self.body = body
        self.response = ResponseAssembly(maximumSize: maximumSize)
        self.finish = finish
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { sendRequest(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        sendRequest(context: context)
        context.fireChannelActive()
    }

    private func sendRequest(context: ChannelHandlerContext) {
        guard !requestSent else { return }
        requestSent = true
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        if let body, !body.isEmpty {
            context.write(wrapOutboundOut(.body(.byteBuffer(ByteBuffer(bytes: body)))), promise: nil)
        }
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !finished, let ending = response.receive(unwrapInboundIn(data)) else { return }
        end(ending, context: context)
    }

    func channelInactive(context: ChannelHandlerContext) {
        end(.failure(ChannelError.eof, answered: false), context: context)
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        end(.failure(error, answered: false), context: context)
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? IdleStateHandler.IdleStateEvent, event == .all {
            return end(
                .failure(TimedOut(description: "no byte moved for the request's timeout interval"), answered: false),
                context: context)
        }
        context.fireUserInboundEventTriggered(event)
    }

    /// Ends the exchange from outside the pipeline's events (the resource limit, a cancel).
    func fail(_ error: any Error, context: ChannelHandlerContext) {
        end(.failure(error, answered: false), context: context)
    }

    private func end(_ ending: Ending, context: ChannelHandlerContext) {
        guard !finished else { return }
        finished = true
        var ending = ending
        if case .failure(let error, _) = ending {
            ending = .failure(error, answered: response.isAnswered)
        }
        if finish(ending, context.channel) {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        } else {
            context.close(promise: nil)
        }
    }
}
