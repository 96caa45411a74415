import Foundation
import NIOCore
import NIOHTTP1
import NIOHPACK
import NIOHTTP2
import NIOPosix
import NIOSSL

// The floor of a client on swift-nio: one TLS connection and the protocol's own codec, nothing else (no pool, no
// trust handler, no redirects, no decompression, no timeouts). Over HTTP/1.1 NIO's codec; over HTTP/2 swift-nio-http2's
// connection handler, its frames handled on the connection itself (no stream channels). What a stack on swift-nio
// spends above this is its own; the h2 / h1 ratio of this floor bounds what any such stack can reach.

/// Sequential GETs of `plan.url` on one connection (`inflight` is 1: Scripts/bench runs it in sequential scenarios).
func rawNIO(_ plan: Plan) -> Outcome {
    let loop = MultiThreadedEventLoopGroup.singleton.next()
    let requests: RawRequests
    do {
        requests = try RawRequests.connect(plan, on: loop).wait()
    } catch {
        FileHandle.standardError.write(Data("bench: raw NIO could not connect: \(error)\n".utf8))
        return Outcome(failures: 1)
    }
    func loopOnce(count: Int, seconds: Double) -> Outcome {
        var outcome = Outcome()
        let ticket = Ticket(count: count, seconds: seconds)
        let start = now()
        while ticket.take() {
            let begin = now()
            let length = try? requests.get().wait()
            outcome.latencies.append((now() - begin) * 1e6)
            outcome.completed += 1
            if let length { outcome.bytes += length } else { outcome.failures += 1 }
        }
        outcome.seconds = now() - start
        return outcome
    }
    let warm = loopOnce(count: plan.warmup, seconds: 0)
    var outcome = loopOnce(count: plan.count, seconds: plan.seconds)
    outcome.failures += warm.failures
    try? requests.channel.close().wait()
    return outcome
}

/// One connection's requests, one at a time: `get()` sends the next and succeeds with the body's length (or fails
/// for a status other than 200).
struct RawRequests: Sendable {
    let channel: any Channel
    private let send: @Sendable (EventLoopPromise<Int>) -> Void

    func get() -> EventLoopFuture<Int> {
        let promise = channel.eventLoop.makePromise(of: Int.self)
        channel.eventLoop.execute { send(promise) }
        return promise.futureResult
    }

    static func connect(_ plan: Plan, on loop: any EventLoop) -> EventLoopFuture<RawRequests> {
        var tls = TLSConfiguration.makeClientConfiguration()
        tls.trustRoots = .file(plan.cafile)
        tls.applicationProtocols = plan.http2 ? ["h2"] : ["http/1.1"]
        let host = plan.url.host ?? "127.0.0.1"
        let port = plan.url.port ?? 443
        let authority = "\(host):\(port)"
        let path = plan.url.path.isEmpty ? "/" : plan.url.path
        let context: NIOSSLContext
        do { context = try NIOSSLContext(configuration: tls) } catch { return loop.makeFailedFuture(error) }
        let isAddress = host.allSatisfy { $0.isNumber || $0 == "." || $0 == ":" }
        return ClientBootstrap(group: loop)
            .channelOption(.socketOption(.tcp_nodelay), value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let tlsHandler = try NIOSSLClientHandler(context: context, serverHostname: isAddress ? nil : host)
                    try channel.pipeline.syncOperations.addHandler(tlsHandler)
                    if plan.http2 {
                        try channel.pipeline.syncOperations.addHandlers([
                            NIOHTTP2Handler(mode: .client), RawHTTP2Responses(authority: authority, path: path),
                        ])
                    } else {
                        try channel.pipeline.syncOperations.addHTTPClientHandlers()
                        try channel.pipeline.syncOperations.addHandler(RawHTTP1Responses(host: host, path: path))
                    }
                }
            }
            .connect(host: host, port: port)
            .flatMapThrowing { channel in
                RawRequests(channel: channel) { promise in
                    channel.pipeline.fireUserInboundEventTriggered(RawRequest(promise: promise))
                }
            }
    }
}

/// The request a `RawRequests` hands down its pipeline, as an event.
struct RawRequest {
    let promise: EventLoopPromise<Int>
}

/// HTTP/1.1: a GET per request on the keep-alive connection.
final class RawHTTP1Responses: ChannelDuplexHandler {
    typealias InboundIn = HTTPClientResponsePart
    typealias OutboundIn = Never
    typealias OutboundOut = HTTPClientRequestPart

    private let head: HTTPRequestHead
    private let response = PendingResponse()

    init(host: String, path: String) {
        head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: ["Host": host])
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let request = event as? RawRequest else { return context.fireUserInboundEventTriggered(event) }
        response.start(request.promise)
        context.write(wrapOutboundOut(.head(head)), promise: nil)
        context.writeAndFlush(wrapOutboundOut(.end(nil)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        switch unwrapInboundIn(data) {
        case .head(let head): response.status = Int(head.status.code)
        case .body(let body): response.length += body.readableBytes
        case .end: response.end()
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        response.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        response.fail(RawFailure.closed)
    }
}

/// HTTP/2: a stream per request, its frames read on the connection; the connection's and the stream's receive
/// windows given back as data arrives (nothing else does without stream channels).
final class RawHTTP2Responses: ChannelDuplexHandler {
    typealias InboundIn = HTTP2Frame
    typealias OutboundIn = Never
    typealias OutboundOut = HTTP2Frame

    private let headers: HPACKHeaders
    private var nextStream = HTTP2StreamID(1)
    private var current: HTTP2StreamID?
    private let response = PendingResponse()
    private var unacknowledgedConnectionBytes = 0
    private var unacknowledgedStreamBytes = 0
    private static let windowUpdateThreshold = 32 * 1024

    init(authority: String, path: String) {
        headers = [":method": "GET", ":scheme": "https", ":authority": authority, ":path": path]
    }

    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        guard let request = event as? RawRequest else { return context.fireUserInboundEventTriggered(event) }
        let stream = nextStream
        nextStream = HTTP2StreamID(Int(stream) + 2)
        current = stream
        response.start(request.promise)
        unacknowledgedStreamBytes = 0
        let payload = HTTP2Frame.FramePayload.headers(.init(headers: headers, endStream: true))
        context.writeAndFlush(wrapOutboundOut(HTTP2Frame(streamID: stream, payload: payload)), promise: nil)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        guard frame.streamID == current else { return }
        switch frame.payload {
        case .headers(let block):
            if let value = block.headers.first(name: ":status") { response.status = Int(value) ?? 0 }
            if block.endStream { end() }
        case .data(let data):
            let received = data.data.readableBytes + (data.paddingBytes ?? 0)
            response.length += data.data.readableBytes
            giveBack(received, on: frame.streamID, ended: data.endStream, context: context)
            if data.endStream { end() }
        case .rstStream(let code):
            response.fail(RawFailure.reset(code))
        default:
            break
        }
    }

    private func giveBack(_ bytes: Int, on stream: HTTP2StreamID, ended: Bool, context: ChannelHandlerContext) {
        unacknowledgedConnectionBytes += bytes
        unacknowledgedStreamBytes += bytes
        var flush = false
        if unacknowledgedConnectionBytes >= Self.windowUpdateThreshold {
            context.write(wrapOutboundOut(HTTP2Frame(streamID: .rootStream, payload: .windowUpdate(windowSizeIncrement: unacknowledgedConnectionBytes))), promise: nil)
            unacknowledgedConnectionBytes = 0
            flush = true
        }
        if !ended, unacknowledgedStreamBytes >= Self.windowUpdateThreshold {
            context.write(wrapOutboundOut(HTTP2Frame(streamID: stream, payload: .windowUpdate(windowSizeIncrement: unacknowledgedStreamBytes))), promise: nil)
            unacknowledgedStreamBytes = 0
            flush = true
        }
        if flush { context.flush() }
    }

    private func end() {
        current = nil
        response.end()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        response.fail(error)
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        response.fail(RawFailure.closed)
    }
}

/// The request in flight on a raw connection: its status and body length so far, and the promise its end completes
/// once.
final class PendingResponse {
    var status = 0
    var length = 0
    private var promise: EventLoopPromise<Int>?

    func start(_ promise: EventLoopPromise<Int>) {
        self.promise = promise
        status = 0
        length = 0
    }

    /// Succeeds with the body's length for a 200, fails for any other status.
    func end() {
        if status == 200 { complete(.success(length)) } else { fail(RawFailure.status(status)) }
    }

    func fail(_ error: any Error) {
        complete(.failure(error))
    }

    private func complete(_ result: Result<Int, any Error>) {
        let promise = self.promise
        self.promise = nil
        promise?.completeWith(result)
    }
}

enum RawFailure: Error {
    case status(Int)
    case closed
    case reset(HTTP2ErrorCode)
}
