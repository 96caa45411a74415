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
import Synchronization

/// One fetch on the wire: a new connection per hop, redirects followed by ``RedirectRule``, and exactly one outcome
/// whatever races it (the response, a failure, the resource limit, a cancel).
final class Exchange: Cancelable {

    private struct State {
        var channel: (any Channel)?
        var hop = 0
        var isDone = false
        var isCancelled = false
        var resourceTimer: Scheduled<Void>?
    }

    private let setup: TransportSetup
    private let completion: @Sendable (Network.TransportOutcome) -> Void
    private let release: @Sendable () -> Void
    private let state = Mutex(State())

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

    private func hop(_ request: URLRequest, redirects: Int) {
        let url = request.url!
        let target = Target(url: url, overrides: setup.configuration.resolveOverrides)
        let hop = state.withLock { state -> Int? in
            guard !state.isDone else { return nil }
            state.hop += 1
            state.channel = nil
            return state.hop
        }
        guard let hop else { return }
        let timeout = request.timeoutInterval > 0 ? request.timeoutInterval : 60
        let idle = TimeAmount.nanoseconds(Int64(min(timeout, 1e9) * 1e9))
        let trust = target.isTLS ? setup.trust(host: target.host, port: target.port) : nil
        let head = Self.head(of: request, target: target)
        let maximumSize = setup.configuration.maximumResponseSize
        let sslContext = setup.sslContext
        let bootstrap = ClientBootstrap(group: setup.group)
            .connectTimeout(idle)
            .channelInitializer { [weak self] channel in
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
                    try pipeline.addHandler(NIOHTTPResponseDecompressor(limit: .size(maximumSize)))
                    try pipeline.addHandler(
                        ResponseCollector(head: head, body: request.httpBody, maximumSize: maximumSize, isTLS: target.isTLS) { ending in
                            self?.hopEnded(ending, hop: hop, request: request, redirects: redirects, trust: trust)
                        })
                }
            }
        bootstrap.connect(host: target.address, port: target.port).whenComplete { [weak self] result in
            guard let self else { return }
            switch result {
            case .success(let channel):
                let stale = self.state.withLock { state -> Bool in
                    guard !state.isDone, state.hop == hop else { return true }
                    state.channel = channel
                    return false
                }
                if stale { channel.close(promise: nil) }
            case .failure(let error):
                self.end(.failure(TransportErrors.map(error, refusal: trust?.refusal, url: url)), hop: hop)
            }
        }
    }

    private func hopEnded(
        _ ending: ResponseCollector.Ending, hop: Int, request: URLRequest, redirects: Int, trust: HandshakeTrust?
    ) {
        let url = request.url!
        switch ending {
        case .failure(is ResponseCollector.TooLarge, _):
            end(.failure(TransportErrors.make(.dataLengthExceedsMaximum, "the response body is larger than the limit", url: url)), hop: hop)
        case .failure(is ResponseCollector.HeadsTooLarge, _):
            end(.failure(TransportErrors.make(.badServerResponse, "the response heads are larger than 256 KiB in all", url: url)), hop: hop)
        case .failure(let error as ResponseCollector.TimedOut, _):
            end(.failure(TransportErrors.make(.timedOut, error.description, url: url)), hop: hop)
        case .failure(let error, let inHandshake):
            end(.failure(TransportErrors.map(error, refusal: trust?.refusal, inHandshake: inHandshake, url: url)), hop: hop)
        case .response(let head, let body):
            let location = head.headers.first(name: "location")
            switch RedirectRule.decide(status: Int(head.status.code), location: location, request: request, redirects: redirects) {
            case .follow(let next):
                let current = state.withLock { $0.hop == hop && !$0.isDone }
                if current { self.hop(next, redirects: redirects + 1) }
            case .refuse(let error):
                end(.failure(error), hop: hop)
            case .deliver:
                end(Self.outcome(head, body: body, url: url), hop: hop)
            }
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
        if !headers.contains(name: "Connection") { headers.add(name: "Connection", value: "close") }
        return HTTPRequestHead(version: .http1_1, method: HTTPMethod(rawValue: method), uri: target.requestTarget, headers: headers)
    }
}
