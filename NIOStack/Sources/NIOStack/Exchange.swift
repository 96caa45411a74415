import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import NetworkCore

/// One fetch on the wire: a new connection per hop, redirects followed by ``RedirectRule``, and exactly one outcome
/// whatever races it (the response, a failure, the resource limit, a cancel).
final class Exchange: Cancelable {

    struct State {
        var channel: (any Channel)?
        /// The hop's HTTP/2 stream, reset if the exchange ends before it does.
        var stream: (connection: HTTP2Connection, id: HTTP2StreamID)?
        var hop = 0
        var isDone = false
        var isCancelled = false
        var resourceTimer: Scheduled<Void>?
        /// The hop whose connection went back to the pool, possibly before its connect was even reported.
        var pooledHop: Int?
        /// The sends again with no response in between, and whether another is allowed.
        var replays = ReplayRule()
    }

    let setup: TransportSetup
    private let completion: @Sendable (Network.TransportOutcome) -> Void
    private let release: @Sendable () -> Void
    /// Shared with the hop's handlers on the event loop and with callers that cancel.
    let state = Locked(State())

    /// - Parameters:
    ///   - completion: called once with the outcome, unless the exchange was cancelled first.
    ///   - release: called once when the exchange ends, completed or cancelled.
    init(
        setup: TransportSetup, completion: @escaping @Sendable (Network.TransportOutcome) -> Void,
        release: @escaping @Sendable () -> Void
    ) {
        self.setup = setup
        self.completion = completion
        self.release = release
    }

    var isCancelled: Bool { state.withLock { $0.isCancelled } }

    func cancel() {
        let (first, hop) = state.withLock { state -> (Bool, State) in
            defer { state.isDone = true }
            state.isCancelled = true
            return (!state.isDone, state)
        }
        guard first else { return }
        Self.stop(hop)
        release()
    }

    /// Stops what a hop left running: its timer, its connection, its stream.
    private static func stop(_ hop: State) {
        hop.resourceTimer?.cancel()
        hop.channel?.close(promise: nil)
        if let (connection, id) = hop.stream { connection.reset(id) }
    }

    /// Starts the first hop, and the limit on the whole attempt.
    func start(_ request: URLRequest) {
        let limit = setup.configuration.timeoutIntervalForResource
        let timer = setup.group.next().scheduleTask(in: .nanoseconds(Int64(min(limit, 1e9) * 1e9))) { [weak self] in
            guard let self else { return }
            self.end(.failure(TransportErrors.make(.timedOut, "the attempt took longer than \(limit) s", url: request.url)))
        }
        state.withLock { $0.resourceTimer = timer }
        hop(request, redirects: 0)
    }

    /// Sends `request` on the place's shared HTTP/2 connection or an idle HTTP/1.1 one if the pool has one whose server
    /// is still trusted, otherwise on a new connection.
    func hop(_ request: URLRequest, redirects: Int, mayReuse: Bool = true) {
        let target = Target(url: request.url!, overrides: setup.configuration.resolveOverrides)
        let hop = state.withLock { state -> Int? in
            guard !state.isDone else { return nil }
            state.hop += 1
            state.channel = nil
            state.stream = nil
            return state.hop
        }
        guard let hop else { return }
        let attempt = Attempt(request: request, redirects: redirects, hop: hop, target: target)
        if mayReuse, let shared = setup.pool.shared(target.poolKey) { return reuse(shared, for: attempt) }
        if mayReuse, let pooled = setup.pool.take(target.poolKey) { return reuse(pooled, for: attempt) }
        connect(attempt)
    }

    /// Whether the attempt is still the exchange's: it neither ended (a cancel, the resource limit) nor moved on.
    func isCurrent(_ attempt: Attempt) -> Bool {
        state.withLock { $0.hop == attempt.hop && !$0.isDone }
    }

    /// Sends the attempt's request again on a new connection, unless the exchange ended or moved on.
    func sendAgainOnNewConnection(_ attempt: Attempt) {
        if isCurrent(attempt) { hop(attempt.request, redirects: attempt.redirects, mayReuse: false) }
    }

    /// Opens a new connection for the attempt: HTTP/1.1 at once in plain HTTP, the protocol ALPN chose over TLS.
    private func connect(_ attempt: Attempt) {
        let (target, url) = (attempt.target, attempt.request.url!)
        let idle = attempt.idleTimeout
        let trust = target.isTLS ? setup.trust(host: target.host, port: target.port) : nil
        let contexts = setup.contexts
        let bootstrap = ClientBootstrap(group: setup.group)
            .connectTimeout(idle)
            .channelInitializer { [weak self] channel in
                channel.eventLoop.makeCompletedFuture {
                    guard let self else { throw ChannelError.ioOnClosedChannel }
                    let pipeline = channel.pipeline.syncOperations
                    let idleHandler = IdleStateHandler(allTimeout: idle)
                    try pipeline.addHandler(idleHandler)
                    guard let trust else { return try self.speakHTTP1(on: channel, attempt, trust: nil, reused: false) }
                    // Given back when the handshake ends, or when the connection ends without one (a failed connect).
                    let lent = try contexts.lend(to: trust)
                    channel.closeFuture.whenComplete { _ in lent.giveBack() }
                    let ssl = try NIOSSLClientHandler(
                        context: lent.context, serverHostname: target.sniName, customVerificationCallbackWithMetadata: trust.verify)
                    try pipeline.addHandler(ssl)
                    let starter = ConnectionStarter { [weak self] negotiated, channel in
                        lent.giveBack()
                        guard let self else { throw ChannelError.ioOnClosedChannel }
                        switch negotiated {
                        case .http1:
                            try self.speakHTTP1(on: channel, attempt, trust: trust, reused: false)
                        case .http2:
                            // Each stream has its own idle timer: an idle shared connection is no failure.
                            channel.pipeline.syncOperations.removeHandler(idleHandler, promise: nil)
                            try self.speakHTTP2(on: channel, attempt, trust: trust)
                        }
                    } failed: { [weak self] error in
                        lent.giveBack()
                        self?.hopFailed(error, inHandshake: true, attempt: attempt, trust: trust, reused: false)
                    }
                    try pipeline.addHandler(starter)
                }
            }
        bootstrap.connect(host: target.address, port: target.port).whenComplete { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let channel):
                if !self.adopt(channel, hop: attempt.hop) { channel.close(promise: nil) }
            case .failure(let error):
                self.end(.failure(TransportErrors.map(error, trust: trust, url: url)), hop: attempt.hop)
            }
        }
    }

    /// HTTP/1.1's handlers, and the request's collector, on a connection of its own.
    private func speakHTTP1(on channel: any Channel, _ attempt: Attempt, trust: HandshakeTrust?, reused: Bool) throws {
        // NIO's client handlers, with interim (1xx) heads forwarded so that the collector counts their bytes.
        try channel.pipeline.syncOperations.addHandlers([
            HTTPRequestEncoder(),
            ByteToMessageHandler(HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)),
            NIOHTTPRequestHeadersValidator(),
            // Decoded bytes count against the limit, so a small compressed body cannot expand without end (HTTP-15).
            NIOHTTPResponseDecompressor(limit: .size(setup.configuration.maximumResponseSize)),
            collector(for: attempt, trust: trust, reused: reused),
        ])
    }

    /// One hop's request and where it goes.
    struct Attempt: Sendable {
        let request: URLRequest
        let redirects: Int
        let hop: Int
        let target: Target

        /// No byte moving for this long fails the attempt.
        var idleTimeout: TimeAmount {
            let seconds = request.timeoutInterval > 0 ? request.timeoutInterval : 60
            return .nanoseconds(Int64(min(seconds, 1e9) * 1e9))
        }
    }

    /// A pooled connection serves the request only if the handler still trusts its server and answers its request for
    /// a client certificate as the connection did; a refusal sends nothing.
    private func reuse(_ pooled: ConnectionPool.Connection, for attempt: Attempt) {
        switch pooled.trust.map({ recheck($0, for: attempt) }) ?? .reuse {
        case .reuse:
            break
        case .newConnection:
            pooled.channel.close(promise: nil)
            return connect(attempt)
        case .refused(let error):
            pooled.channel.close(promise: nil)
            return end(.failure(error), hop: attempt.hop)
        }
        guard adopt(pooled.channel, hop: attempt.hop) else { return setup.pool.put(pooled, for: attempt.target.poolKey) }
        // Two turns of the channel's loop: a task queued from inside a task runs only after the loop has polled its
        // sockets again, so the reads it had pending (a server's close_notify and FIN on the idle connection) are
        // handled first, and a connection the server closed is inactive by then (HTTP-21). A handler added to an
        // inactive channel would never send its request.
        let loop = pooled.channel.eventLoop
        loop.execute {
            loop.execute {
                guard pooled.channel.isActive else {
                    return self.hop(attempt.request, redirects: attempt.redirects, mayReuse: false)
                }
                do {
                    try pooled.channel.pipeline.syncOperations.addHandler(
                        self.collector(for: attempt, trust: pooled.trust, reused: true))
                } catch {
                    // Closed between the pool and now: a new connection, as if the pool had been empty.
                    self.hop(attempt.request, redirects: attempt.redirects, mayReuse: false)
                }
            }
        }
    }

    /// What the check before a request on a reused connection decided (TRUST-6, TRUST-12).
    enum Recheck {
        /// The connection carries the request.
        case reuse
        /// The handler would now present another client identity (or none): the request goes on a new connection.
        case newConnection
        /// The handler refused the server, or cancelled its client-certificate challenge.
        case refused(URLError)
    }

    /// The check before a request on a reused connection: the handler still trusts its server, and answers its request
    /// for a client certificate, if it made one, as the connection did.
    func recheck(_ trust: HandshakeTrust, for attempt: Attempt) -> Recheck {
        let url = attempt.request.url
        if let refusal = trust.recheck() { return .refused(TransportErrors.map(refusal, cause: nil, url: url)) }
        switch trust.recheckClientIdentity() {
        case .sameAnswer:
            return .reuse
        case .anotherAnswer:
            return .newConnection
        case .cancelled:
            let message = "the challenge handler cancelled the client-certificate challenge of a reused connection"
            return .refused(TransportErrors.make(.clientCertificateRequired, message, url: url))
        }
    }

    /// Makes this hop's channel the exchange's, unless the exchange ended or moved on meanwhile (`false`: close it).
    /// A hop whose response ended before its connect was reported already pooled the channel: it stays open.
    func adopt(_ channel: any Channel, hop: Int) -> Bool {
        state.withLock { state -> Bool in
            if state.pooledHop == hop { return true }
            guard !state.isDone, state.hop == hop else { return false }
            state.channel = channel
            return true
        }
    }

    /// Lets go of a hop's connection so that the end of the exchange does not close it; `false` when the exchange
    /// already ended (cancelled, timed out) or moved on.
    func detach(_ channel: any Channel, hop: Int) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isDone, state.hop == hop, state.channel == nil || state.channel === channel else { return false }
            state.channel = nil
            state.pooledHop = hop
            return true
        }
    }

    /// Makes a hop's HTTP/2 stream the exchange's in place of its connection, which stays open for others, unless
    /// the exchange ended or moved on meanwhile (`false`: reset the stream).
    func adopt(_ stream: HTTP2StreamID, on connection: HTTP2Connection, hop: Int) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isDone, state.hop == hop else { return false }
            state.channel = nil
            state.stream = (connection, stream)
            return true
        }
    }

    /// Forgets a stream that ended on its own, so that the end of the exchange does not reset it.
    func streamEnded(_ id: HTTP2StreamID) {
        state.withLock { state in
            if state.stream?.id == id { state.stream = nil }
        }
    }

    /// Completes the fetch once: later endings (a timer, a stale hop, a cancel) are ignored.
    func end(_ outcome: Network.TransportOutcome, hop: Int? = nil) {
        let (first, ended) = state.withLock { state -> (Bool, State?) in
            guard !state.isDone, hop == nil || state.hop == hop else { return (false, nil) }
            state.isDone = true
            return (true, state)
        }
        guard first, let ended else { return }
        Self.stop(ended)
        release()
        completion(outcome)
    }
}
