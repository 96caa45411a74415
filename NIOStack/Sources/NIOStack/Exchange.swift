import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOHTTPCompression
import NIOPosix
import NIOSSL
import NetworkCore

/// One fetch on the wire: a new connection per hop, redirects followed by ``RedirectRule``, and exactly one outcome
/// whatever races it (the response, a failure, the resource limit, a cancel).
final class Exchange: Cancelable {

    private struct State {
        var channel: (any Channel)?
        var hop = 0
        var isDone = false
        var isCancelled = false
        var resourceTimer: Scheduled<Void>?
        /// The hop whose connection went back to the pool, possibly before its connect was even reported.
        var pooledHop: Int?
    }

    private let setup: TransportSetup
    private let completion: @Sendable (Network.TransportOutcome) -> Void
    private let release: @Sendable () -> Void
    private let state = Locked(State())

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
        let (first, channel, timer) = state.withLock { state -> (Bool, (any Channel)?, Scheduled<Void>?) in
            defer { state.isDone = true }
            state.isCancelled = true
            return (!state.isDone, state.channel, state.resourceTimer)
        }
        guard first else { return }
        timer?.cancel()
        channel?.close(promise: nil)
        release()
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

    /// Sends `request` on an idle connection to the same place if the pool has one whose server is still trusted,
    /// otherwise on a new connection.
    private func hop(_ request: URLRequest, redirects: Int, mayReuse: Bool = true) {
        let url = request.url!
        let target = Target(url: url, overrides: setup.configuration.resolveOverrides)
        let hop = state.withLock { state -> Int? in
            guard !state.isDone else { return nil }
            state.hop += 1
            state.channel = nil
            return state.hop
        }
        guard let hop else { return }
        let attempt = Attempt(request: request, redirects: redirects, hop: hop, target: target)
        if mayReuse, let pooled = setup.pool.take(target.poolKey) {
            return reuse(pooled, for: attempt)
        }
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        let idle = TimeAmount.nanoseconds(Int64(min(timeout, 1e9) * 1e9))
        let trust = target.isTLS ? setup.trust(host: target.host, port: target.port) : nil
        let sslContext = setup.sslContext
        let setupMaximumSize = setup.configuration.maximumResponseSize
        let collector = collectorMaker(for: attempt, trust: trust, reused: false)
        let bootstrap = ClientBootstrap(group: setup.group)
            .connectTimeout(idle)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    let pipeline = channel.pipeline.syncOperations
                    try pipeline.addHandler(IdleStateHandler(allTimeout: idle))
                    if let trust {
                        let ssl = try NIOSSLClientHandler(
                            context: try sslContext.get(), serverHostname: target.sniName,
                            customVerificationCallbackWithMetadata: trust.verify)
                        try pipeline.addHandler(ssl)
                    }
                    // NIO's client handlers, with interim (1xx) heads forwarded so that the collector counts their bytes.
                    try pipeline.addHandlers([
                        HTTPRequestEncoder(),
                        ByteToMessageHandler(
                            HTTPResponseDecoder(leftOverBytesStrategy: .dropBytes, informationalResponseStrategy: .forward)),
                        NIOHTTPRequestHeadersValidator(),
                    ])
                    // Decoded bytes count against the limit, so a small compressed body cannot expand without end (HTTP-15).
                    try pipeline.addHandler(NIOHTTPResponseDecompressor(limit: .size(setupMaximumSize)))
                    try pipeline.addHandler(collector())
                }
            }
        bootstrap.connect(host: target.address, port: target.port).whenComplete { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let channel):
                if !self.adopt(channel, hop: hop) { channel.close(promise: nil) }
            case .failure(let error):
                self.end(.failure(TransportErrors.map(error, refusal: trust?.refusal, url: url)), hop: hop)
            }
        }
    }

    /// One hop's request and where it goes.
    private struct Attempt: Sendable {
        let request: URLRequest
        let redirects: Int
        let hop: Int
        let target: Target
    }

    /// A pooled connection serves the request only if the handler still trusts its server; a refusal sends nothing.
    private func reuse(_ pooled: ConnectionPool.Connection, for attempt: Attempt) {
        if let trust = pooled.trust, let refusal = trust.recheck() {
            pooled.channel.close(promise: nil)
            return end(.failure(TransportErrors.map(refusal, cause: nil, url: attempt.request.url)), hop: attempt.hop)
        }
        guard adopt(pooled.channel, hop: attempt.hop) else { return setup.pool.put(pooled, for: attempt.target.poolKey) }
        let collector = collectorMaker(for: attempt, trust: pooled.trust, reused: true)
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
                    try pooled.channel.pipeline.syncOperations.addHandler(collector())
                } catch {
                    // Closed between the pool and now: a new connection, as if the pool had been empty.
                    self.hop(attempt.request, redirects: attempt.redirects, mayReuse: false)
                }
            }
        }
    }

    /// Makes this hop's channel the exchange's, unless the exchange ended or moved on meanwhile (`false`: close it).
    /// A hop whose response ended before its connect was reported already pooled the channel: it stays open.
    private func adopt(_ channel: any Channel, hop: Int) -> Bool {
        state.withLock { state -> Bool in
            if state.pooledHop == hop { return true }
            guard !state.isDone, state.hop == hop else { return false }
            state.channel = channel
            return true
        }
    }

    private func collectorMaker(for attempt: Attempt, trust: HandshakeTrust?, reused: Bool) -> @Sendable () -> ResponseCollector {
        let head = Self.head(of: attempt.request, target: attempt.target)
        let maximumSize = setup.configuration.maximumResponseSize
        let awaitsHandshake = attempt.target.isTLS && !reused
        return { [weak self] in
            ResponseCollector(head: head, body: attempt.request.httpBody, maximumSize: maximumSize, awaitsHandshake: awaitsHandshake) {
                ending, channel in
                self?.hopEnded(ending, attempt: attempt, trust: trust, reused: reused, channel: channel) ?? false
            }
        }
    }

    /// How a hop ended; answers whether its connection is kept for another request.
    private func hopEnded(
        _ ending: ResponseCollector.Ending, attempt: Attempt, trust: HandshakeTrust?, reused: Bool, channel: any Channel
    ) -> Bool {
        let (request, hop, url) = (attempt.request, attempt.hop, attempt.request.url!)
        switch ending {
        case .failure(is ResponseCollector.TooLarge, _, _):
            end(.failure(TransportErrors.make(.dataLengthExceedsMaximum, "the response body is larger than the limit", url: url)), hop: hop)
        case .failure(is ResponseCollector.HeadsTooLarge, _, _):
            end(.failure(TransportErrors.make(.badServerResponse, "the response heads are larger than 256 KiB in all", url: url)), hop: hop)
        case .failure(let error as ResponseCollector.TimedOut, _, _):
            end(.failure(TransportErrors.make(.timedOut, error.description, url: url)), hop: hop)
        case .failure(_, _, let answered) where reused && !answered && RequestCheck.mayBeSentAgain(request):
            // The server closed the idle connection as the request went out: send it again on a new one.
            let current = state.withLock { $0.hop == hop && !$0.isDone }
            if current { self.hop(request, redirects: attempt.redirects, mayReuse: false) }
        case .failure(let error, let inHandshake, _):
            end(.failure(TransportErrors.map(error, refusal: trust?.refusal, inHandshake: inHandshake, url: url)), hop: hop)
        case .response(let head, let body):
            let keep = head.isKeepAlive && head.status != .switchingProtocols && detach(channel, hop: hop)
            if keep { setup.pool.put(ConnectionPool.Connection(channel: channel, trust: trust), for: attempt.target.poolKey) }
            let location = head.headers.first(name: "location")
            switch RedirectRule.decide(
                status: Int(head.status.code), location: location, request: request, redirects: attempt.redirects,
                library: TransportErrors.library)
            {
            case .follow(let next):
                let current = state.withLock { $0.hop == hop && !$0.isDone }
                if current { self.hop(next, redirects: attempt.redirects + 1) }
            case .refuse(let error):
                end(.failure(error), hop: hop)
            case .deliver:
                end(Self.outcome(head, body: body, url: url), hop: hop)
            }
            return keep
        }
        return false
    }

    /// Lets go of a hop's connection so that the end of the exchange does not close it; `false` when the exchange
    /// already ended (cancelled, timed out) or moved on.
    private func detach(_ channel: any Channel, hop: Int) -> Bool {
        state.withLock { state -> Bool in
            guard !state.isDone, state.hop == hop, state.channel == nil || state.channel === channel else { return false }
            state.channel = nil
            state.pooledHop = hop
            return true
        }
    }

    /// Completes the fetch once: later endings (a timer, a stale hop, a cancel) are ignored.
    private func end(_ outcome: Network.TransportOutcome, hop: Int? = nil) {
        let (first, channel, timer) = state.withLock { state -> (Bool, (any Channel)?, Scheduled<Void>?) in
            guard !state.isDone, hop == nil || state.hop == hop else { return (false, nil, nil) }
            state.isDone = true
            return (true, state.channel, state.resourceTimer)
        }
        guard first else { return }
        timer?.cancel()
        channel?.close(promise: nil)
        release()
        completion(outcome)
    }

    private static func outcome(_ head: HTTPResponseHead, body: ByteBuffer?, url: URL) -> Network.TransportOutcome {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        guard let response = HTTPURLResponse(url: url, statusCode: Int(head.status.code), httpVersion: "HTTP/1.1", headerFields: fields)
        else { return .noHTTPResponse(nil) }
        return .response(response, body: body.map { Data($0.readableBytesView) })
    }

    private static func head(of request: URLRequest, target: Target) -> HTTPRequestHead {
        var headers = HTTPHeaders()
        if request.value(forHTTPHeaderField: "Host") == nil { headers.add(name: "Host", value: target.hostHeader) }
        for (name, value) in request.allHTTPHeaderFields ?? [:] { headers.add(name: name, value: value) }
        let method = request.httpMethod ?? "GET"
        if let body = request.httpBody {
            headers.replaceOrAdd(name: "Content-Length", value: String(body.count))
        } else if ["POST", "PUT", "PATCH"].contains(method.uppercased()) {
            headers.replaceOrAdd(name: "Content-Length", value: "0")
        }
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: target.requestTarget, headers: headers)
    }
}
