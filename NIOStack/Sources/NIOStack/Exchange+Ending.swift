import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NIOCore
import NIOHTTP1
import NIOHTTP2
import NetworkCore

/// How a hop ends: its response followed or delivered, its failure sent again or mapped to the fetch's `URLError`.
extension Exchange {

    /// The last handler of the attempt's HTTP/1.1 pipeline.
    func collector(for attempt: Attempt, trust: HandshakeTrust?, reused: Bool) -> ResponseCollector {
        ResponseCollector(
            head: Self.head(of: attempt.request, target: attempt.target), body: attempt.request.httpBody,
            maximumSize: setup.configuration.maximumResponseSize
        ) { [weak self] ending, channel in
            guard let self else { return false }
            switch ending {
            case .response(let head, let body):
                return self.hopAnswered(head, body: body, attempt: attempt, trust: trust, channel: channel)
            case .failure(let error, let answered):
                self.hopFailed(error, answered: answered, attempt: attempt, trust: trust, reused: reused)
                return false
            }
        }
    }

    /// How a hop failed: sent again on a new connection when ``ReplayRule`` allows, otherwise the fetch's failure.
    func hopFailed(
        _ error: any Error, inHandshake: Bool = false, answered: Bool = false, attempt: Attempt, trust: HandshakeTrust?, reused: Bool,
        over connection: HTTP2Connection? = nil, stream: HTTP2StreamID? = nil
    ) {
        let (request, hop, url) = (attempt.request, attempt.hop, attempt.request.url!)
        switch error {
        case let error as ResponseCollector.TimedOut:
            return end(.failure(TransportErrors.make(.timedOut, error.description, url: url)), hop: hop)
        case is ResponseCollector.TooLarge:
            return end(
                .failure(TransportErrors.make(.dataLengthExceedsMaximum, "the response body is larger than the limit", url: url)), hop: hop)
        case let error as HTTP2Streams.Unsendable:
            let message = "HTTP/2 cannot carry the request as it is (\(error.cause)): nothing of it was sent"
            return end(.failure(TransportErrors.make(.badURL, message, url: url)), hop: hop)
        case is ResponseCollector.HeadsTooLarge:
            return end(
                .failure(
                    TransportErrors.make(
                        .badServerResponse, "the response heads are larger than 256 KiB in all", url: url)),
                hop: hop)
        default:
            break
        }
        if !answered, !inHandshake, let cause = Self.replayCause(of: error, reused: reused, stream: stream, over: connection) {
            let decision = state.withLock { state -> ReplayRule.Decision? in
                guard state.hop == hop, !state.isDone else { return nil }
                return state.replays.decide(cause, isIdempotent: RequestCheck.mayBeSentAgain(request))
            }
            switch decision {
            case nil:
                return
            case .sendAgain:
                return self.hop(request, redirects: attempt.redirects, mayReuse: false)
            case .exhausted(let sends):
                let message =
                    "the request was sent \(sends) times with no response (a refused HTTP/2 stream, a GOAWAY that left it out, or a dead connection, each time); replays stop at \(ReplayRule.maximumReplays)"
                return end(.failure(TransportErrors.make(.networkConnectionLost, message, url: url)), hop: hop)
            case .lostAfterSending:
                break
            }
        }
        guard let connection else {
            return end(.failure(TransportErrors.map(error, trust: trust, inHandshake: inHandshake, url: url)), hop: hop)
        }
        end(.failure(TransportErrors.map(streamError: error, connectionFailure: connection.failure, trust: trust, url: url)), hop: hop)
    }

    /// Why a request with no response may go again, if it may: a refused stream, a stream a `GOAWAY` left out, a
    /// reused connection lost under it.
    private static func replayCause(of error: any Error, reused: Bool, stream: HTTP2StreamID?, over connection: HTTP2Connection?)
        -> ReplayRule.Cause?
    {
        guard let connection else { return reused ? .reusedConnectionLost : nil }
        if let closed = error as? NIOHTTP2Errors.StreamClosed, closed.errorCode == .refusedStream { return .refusedStream }
        if let id = stream, connection.wasLeftOut(id) {
            return .leftOutByGoAway
        }
        // A stream the server reset, or whose response broke the rules, was answered in its way; only a connection that
        // went away under a reused stream leaves its fate unknown.
        let connectionLost = !connection.channel.isActive || connection.failure != nil
        return reused && connectionLost && !(error is NIOHTTP2Errors.StreamClosed) ? .reusedConnectionLost : nil
    }

    /// A hop's response: followed, refused or delivered as ``RedirectRule`` decides. Answers whether its HTTP/1.1
    /// connection (`nil` over HTTP/2, whose connection stays shared) is kept for another request.
    func hopAnswered(_ head: HTTPResponseHead, body: ByteBuffer?, attempt: Attempt, trust: HandshakeTrust?, channel: (any Channel)?)
        -> Bool
    {
        let (request, hop, url) = (attempt.request, attempt.hop, attempt.request.url!)
        state.withLock { $0.replays.responseArrived() }
        var keep = false
        if let channel {
            keep = head.isKeepAlive && head.status != .switchingProtocols && detach(channel, hop: hop)
            if keep { setup.pool.put(ConnectionPool.Connection(channel: channel, trust: trust), for: attempt.target.poolKey) }
        }
        let location = head.headers.first(name: "location")
        switch RedirectRule.decide(
            status: Int(head.status.code), location: location, request: request, redirects: attempt.redirects,
            maximum: setup.configuration.redirects.maximum, library: TransportErrors.library)
        {
        case .follow(let next):
            if isCurrent(attempt) { self.hop(next, redirects: attempt.redirects + 1) }
        case .refuse(let error):
            end(.failure(error), hop: hop)
        case .deliver:
            end(Self.outcome(head, body: body, url: url), hop: hop)
        }
        return keep
    }

    static func outcome(_ head: HTTPResponseHead, body: ByteBuffer?, url: URL) -> Network.TransportOutcome {
        var fields: [String: String] = [:]
        for (name, value) in head.headers {
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        let version = head.version.major == 2 ? "HTTP/2" : "HTTP/1.1"
        guard let response = HTTPURLResponse(url: url, statusCode: Int(head.status.code), httpVersion: version, headerFields: fields)
        else { return .noHTTPResponse(nil) }
        return .response(response, body: body.map { Data($0.readableBytesView) })
    }

    static func head(of request: URLRequest, target: Target) -> HTTPRequestHead {
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
