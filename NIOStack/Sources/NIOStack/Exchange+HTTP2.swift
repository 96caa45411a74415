import NIOCore
import NIOHTTP1
import NIOHPACK
import NIOHTTP2
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
        let streams = HTTP2Streams()
        try channel.pipeline.syncOperations.addHandlers([
            NIOHTTP2Handler(mode: .client, connectionConfiguration: configuration), streams,
        ])
        let connection = HTTP2Connection(channel: channel, streams: streams, trust: trust)
        openStream(on: connection, attempt, reused: false)
        setup.pool.share(connection, for: attempt.target.poolKey)
    }

    /// A new stream on the place's shared connection, if it is still usable and passes the check before a request on a
    /// reused connection; a refusal sends nothing, and takes the connection out of sharing.
    func reuse(_ connection: HTTP2Connection, for attempt: Attempt) {
        // Two turns of the connection's loop: what its server sent with the last response (a GOAWAY after a response
        // that closes the connection, HTTP-21) is read first. A connection no longer usable is no replay.
        let loop = connection.channel.eventLoop
        loop.execute {
            loop.execute { [weak self] in
                guard let self, self.isCurrent(attempt) else { return }
                guard connection.isUsable else { return self.sendAgainOnNewConnection(attempt) }
                switch connection.trust.map({ self.recheck($0, for: attempt) }) ?? .reuse {
                case .reuse:
                    self.openStream(on: connection, attempt, reused: true)
                case .newConnection:
                    // The new connection, with the handler's new answer, serves the place from now on.
                    self.setup.pool.retire(connection, for: attempt.target.poolKey)
                    self.sendAgainOnNewConnection(attempt)
                case .refused(let error):
                    self.setup.pool.retire(connection, for: attempt.target.poolKey)
                    self.end(.failure(error), hop: attempt.hop)
                }
            }
        }
    }

    /// Opens the attempt's stream, on the connection's event loop; a connection that can no longer open one sends the
    /// request on a new connection, as nothing of it was sent.
    private func openStream(on connection: HTTP2Connection, _ attempt: Attempt, reused: Bool) {
        let head = Self.head(of: attempt.request, target: attempt.target)
        let body = attempt.request.httpBody.flatMap { $0.isEmpty ? nil : ByteBuffer(bytes: $0) }
        let trust = connection.trust
        let opened = connection.streams.value.open(
            Self.fields(of: head, isTLS: attempt.target.isTLS), body: body, idleTimeout: attempt.idleTimeout,
            maximumSize: setup.configuration.maximumResponseSize
        ) { [weak self] ending, id in
            guard let self else { return }
            self.streamEnded(id)
            switch ending {
            case .response(let head, let body):
                _ = self.hopAnswered(head, body: body, attempt: attempt, trust: trust, channel: nil)
            case .failure(is HTTP2Streams.NotOpened, _):
                self.sendAgainOnNewConnection(attempt)
            case .failure(let error, let answered):
                self.hopFailed(error, answered: answered, attempt: attempt, trust: trust, reused: reused, over: connection, stream: id)
            }
        }
        guard let opened else { return sendAgainOnNewConnection(attempt) }
        if !adopt(opened, on: connection, hop: attempt.hop) { connection.streams.value.reset(opened) }
    }

    /// The request's fields as HTTP/2 sends them: its pseudo-fields first, the `Host` field as `:authority`, names in
    /// lowercase, HTTP/1.1's connection fields and those its `Connection` field names left out (RFC 9113 §8.2.2), and
    /// compressed bodies accepted (the decompressor's offer, as over HTTP/1.1).
    static func fields(of head: HTTPRequestHead, isTLS: Bool) -> HPACKHeaders {
        var fields = HPACKHeaders()
        fields.reserveCapacity(head.headers.count + 4)
        fields.add(name: ":method", value: head.method.rawValue)
        fields.add(name: ":scheme", value: isTLS ? "https" : "http")
        fields.add(name: ":authority", value: head.headers.first(name: "host") ?? "")
        fields.add(name: ":path", value: head.uri)
        let named = head.headers[canonicalForm: "connection"].map { $0.lowercased() }
        for (name, value) in head.headers {
            let name = name.lowercased()
            if name == "te" {
                // HTTP/2's only TE, and only as `trailers`: nio-http2 refuses any other spelling.
                if value.lowercased() == "trailers" { fields.add(name: name, value: "trailers") }
                continue
            }
            guard !connectionFields.contains(name), !named.contains(name) else { continue }
            fields.add(name: name, value: value)
        }
        if !head.headers.contains(name: "accept-encoding") { fields.add(name: "accept-encoding", value: "deflate, gzip") }
        return fields
    }

    /// HTTP/1.1's fields about the connection, which HTTP/2 forbids; `Host` is `:authority`.
    private static let connectionFields: Set<String> = [
        "host", "connection", "keep-alive", "proxy-connection", "transfer-encoding", "upgrade",
    ]
}
