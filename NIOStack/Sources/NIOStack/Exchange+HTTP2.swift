import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NetworkCore

extension Exchange {

    /// The settings the client announces: no server push, up to 100 concurrent streams, and a header list as large as
    /// the collector's bound on a response's heads.
    private static let http2Settings: HTTP2Settings = [
        HTTP2Setting(parameter: .maxConcurrentStreams, value: 100),
        HTTP2Setting(parameter: .maxHeaderListSize, value: ResponseCollector.maximumHeadBytes),
        HTTP2Setting(parameter: .enablePush, value: 0),
    ]

    /// HTTP/2's framing on a new connection whose server selected `h2`; the connection is shared from then on, and
    /// the attempt's request is its first stream.
    func speakHTTP2(on channel: any Channel, _ attempt: Attempt, trust: HandshakeTrust?) throws {
        var configuration = NIOHTTP2Handler.ConnectionConfiguration()
        configuration.initialSettings = Self.http2Settings
        let multiplexer = try channel.pipeline.syncOperations.configureHTTP2Pipeline(
            mode: .client, connectionConfiguration: configuration, streamConfiguration: .init()
        ) { pushed in pushed.close() }
        let connection = HTTP2Connection(channel: channel, multiplexer: multiplexer, trust: trust)
        try channel.pipeline.syncOperations.addHandler(HTTP2ConnectionWatcher(connection))
        openStream(on: connection, attempt, reused: false)
        setup.pool.share(connection, for: attempt.target.poolKey)
    }

    /// A new stream on the place's shared connection, if it is still usable and the handler still trusts its server;
    /// a refusal sends nothing, and takes the connection out of sharing.
    func reuse(_ connection: HTTP2Connection, for attempt: Attempt) {
        // Two turns of the connection's loop: what its server sent with the last response (a GOAWAY after a response
        // that closes the connection, HTTP-21) is read first. A connection no longer usable is no replay.
        let loop = connection.channel.eventLoop
        loop.execute {
            loop.execute { [weak self] in
                guard let self, self.isCurrent(attempt) else { return }
                guard connection.isUsable else { return self.sendAgainOnNewConnection(attempt) }
                if let trust = connection.trust, let refusal = trust.recheck() {
                    self.setup.pool.retire(connection, for: attempt.target.poolKey)
                    return self.end(.failure(TransportErrors.map(refusal, cause: nil, url: attempt.request.url)), hop: attempt.hop)
                }
                self.openStream(on: connection, attempt, reused: true)
            }
        }
    }

    /// Opens the attempt's stream; a connection that can no longer open one sends the request on a new connection,
    /// as nothing of it was sent.
    private func openStream(on connection: HTTP2Connection, _ attempt: Attempt, reused: Bool) {
        connection.streamOpened()
        let idle = attempt.idleTimeout
        let maximumSize = setup.configuration.maximumResponseSize
        let promise = connection.channel.eventLoop.makePromise(of: (any Channel).self)
        connection.multiplexer.createStreamChannel(promise: promise) { [weak self] stream in
            stream.eventLoop.makeCompletedFuture {
                guard let self else { throw ChannelError.ioOnClosedChannel }
                try stream.pipeline.syncOperations.addHandlers([
                    IdleStateHandler(allTimeout: idle),
                    HTTP2FramePayloadToHTTP1ClientCodec(httpProtocol: attempt.target.isTLS ? .https : .http),
                    NIOHTTPResponseDecompressor(limit: .size(maximumSize)),
                    self.collector(for: attempt, trust: connection.trust, reused: reused, over: connection),
                ])
            }
        }
        promise.futureResult.whenComplete { [weak self] result in
            switch result {
            case .success(let stream):
                stream.closeFuture.whenComplete { _ in connection.streamClosed() }
                if self?.adopt(stream, hop: attempt.hop) != true { stream.close(promise: nil) }
            case .failure:
                connection.streamClosed()
                self?.sendAgainOnNewConnection(attempt)
            }
        }
    }
}
