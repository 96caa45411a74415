import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1

/// The last handler of a pipeline for one request, a connection's over HTTP/1.1 or a stream's over HTTP/2: writes the
/// request once the channel is active (at once on a reused connection), gathers the response, and reports how the
/// exchange ended exactly once. Then it closes the channel, or leaves the pipeline when the connection is kept for
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
    private let maximumSize: Int
    /// Told how the exchange ended; answers whether the connection is kept for another request.
    private let finish: (Ending, any Channel) -> Bool
    private var requestSent = false
    private var responseHead: HTTPResponseHead?
    private var responseBody: ByteBuffer?
    private var finished = false
    private var headBytes = 0

    init(head: HTTPRequestHead, body: Data?, maximumSize: Int, finish: @escaping (Ending, any Channel) -> Bool) {
        self.head = head
        self.body = body
        self.maximumSize = maximumSize
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
        guard !finished else { return }
        switch unwrapInboundIn(data) {
        case .head(let head):
            // Status line and fields, each with its CRLF, as they stood on the wire.
            headBytes +=
                14 + head.status.reasonPhrase.utf8.count + head.headers.reduce(2) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
            if headBytes > Self.maximumHeadBytes {
                return end(.failure(HeadsTooLarge(), answered: false), context: context)
            }
            // An interim head (103 Early Hints): the final one follows.
            if (100..<200).contains(head.status.code), head.status != .switchingProtocols { return }
            responseHead = head
            if let announced = head.headers.first(name: "content-length").flatMap(Int.init), announced > maximumSize {
                return end(.failure(TooLarge(), answered: false), context: context)
            }
            // A 101 the request never asked for: the server left HTTP, so the head is all there is.
            if head.status == .switchingProtocols { end(.response(head, body: nil), context: context) }
        case .body(var part):
            if (responseBody?.readableBytes ?? 0) + part.readableBytes > maximumSize {
                return end(.failure(TooLarge(), answered: false), context: context)
            }
            if responseBody == nil { responseBody = part } else { responseBody!.writeBuffer(&part) }
        case .end:
            guard let responseHead else { return end(.failure(ChannelError.eof, answered: false), context: context) }
            end(.response(responseHead, body: responseBody), context: context)
        }
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
            ending = .failure(error, answered: responseHead != nil || headBytes > 0)
        }
        if finish(ending, context.channel) {
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        } else {
            context.close(promise: nil)
        }
    }
}
