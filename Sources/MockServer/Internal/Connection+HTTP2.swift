import Foundation

/// Serving requests over HTTP/2: the same script, faults and journal as over HTTP/1.1, one request per stream.
extension Connection {
    /// A request stream's place in the script.
    private struct Exchange {
        var index: Int
        var scripted: MockResponse?
        /// When the scripted response's fault fires, as over HTTP/1.1.
        var timeline = ExchangeTimeline(fault: nil)
        /// The request was recorded, or a fault ended it: later events on the stream change nothing.
        var settled = false
        /// The response was submitted; its end is reported to the timeline once the stream is over.
        var answered = false
        var responseEnded = false
    }

    /// What the connection still owes once streams end.
    private struct Pending {
        var exchanges: [Int32: Exchange] = [:]
        var count = 0
        /// The connection closes once this stream's response is sent (`closeConnection`, or GOAWAY past it).
        var closeAfter: Int32?
        /// Streams answered before their request ended: reset once the response's last frame went out (a reset
        /// queued earlier would make nghttp2 drop the response).
        var resetOnceAnswered: Set<Int32> = []
        var reportedFrames = HTTP2ClientFrames()
    }

    func serveHTTP2() {
        guard let session = HTTP2Session(maximumBodySize: core.maximumRequestBodySize) else {
            return finish(by: .server, kind: .fin)
        }
        session.sleep = { [core] in core.sleep($0) }
        var pending = Pending()
        // Ends when the client closes, a fault closes, nghttp2 finds the connection unusable (a fatal error; for a
        // protocol error it queues its GOAWAY and the client leaves), or shutdown wakes the read.
        while !closed {
            guard flush(session) else { return finish(by: core.isShuttingDown ? .server : .client, kind: .fin) }
            settleSentStreams(session, &pending)
            if closed { return }
            // Settling may have queued frames (a reset, a GOAWAY): they go out before the next read blocks.
            guard flush(session) else { return finish(by: core.isShuttingDown ? .server : .client, kind: .fin) }
            guard readMore() else {
                report(session, &pending)
                return finishReading()
            }
            let input = buffer
            buffer.removeAll(keepingCapacity: true)
            let events = session.receive(input)
            report(session, &pending)
            guard let events else {
                // nghttp2 already queued its GOAWAY for the peer's violation: send it, then leave.
                _ = flush(session)
                return finish(by: .server, kind: .fin)
            }
            for event in events {
                handle(event, session, &pending)
                if closed { return }
            }
        }
    }

    /// Writes what nghttp2 has for the wire (a throttled body paced); false when the client is gone.
    private func flush(_ session: HTTP2Session) -> Bool {
        session.send { write($0) }
    }

    private func report(_ session: HTTP2Session, _ pending: inout Pending) {
        guard session.clientFrames != pending.reportedFrames else { return }
        pending.reportedFrames = session.clientFrames
        core.updateConnection(index) { [frames = session.clientFrames] in $0.http2 = frames }
    }

    /// Fires the faults of responses cut short or sent in full, and closes a connection whose last stream ended.
    private func settleSentStreams(_ session: HTTP2Session, _ pending: inout Pending) {
        for stream in session.takeCutStreams() {
            guard pending.exchanges[stream]?.scripted != nil else { continue }
            pending.exchanges[stream]?.responseEnded = true
            // Held by its fault, or by a body that never ends (`missingLastChunkThenClose`), which then closes.
            let effect = pending.exchanges[stream]?.timeline.reach(.responseEnd)?.effect ?? .close
            act(effect, on: stream, session, &pending, midMessage: true, responseFollows: true)
            if closed { return }
            guard flush(session) else { return finish(by: .client, kind: .fin) }
        }
        let ended = pending.exchanges.filter { $0.value.answered && !$0.value.responseEnded && !session.isOpen($0.key) }.keys
        for stream in ended.sorted() {
            pending.exchanges[stream]?.responseEnded = true
            guard let fault = pending.exchanges[stream]?.timeline.reach(.responseEnd) else { continue }
            let midMessage = pending.exchanges[stream]?.timeline.cutsResponse ?? false
            act(fault.effect, on: stream, session, &pending, midMessage: midMessage)
            if closed { return }
        }
        // Streams that are over leave the table, so a long-lived connection keeps only what is in flight.
        if pending.exchanges.count > 2 * Int(HTTP2Session.maximumConcurrentStreams) {
            pending.exchanges = pending.exchanges.filter { !$0.value.settled || session.isOpen($0.key) }
        }
        for stream in pending.resetOnceAnswered where session.isAnswered(stream) {
            pending.resetOnceAnswered.remove(stream)
            if session.isOpen(stream) { session.submitReset(stream, code: .noError) }
        }
        if let last = pending.closeAfter, !session.isOpen(last) {
            finish(by: .server, kind: .fin)
        }
    }

    private func handle(_ event: HTTP2Session.Event, _ session: HTTP2Session, _ pending: inout Pending) {
        switch event {
        case .requestStarted(let stream):
            pending.exchanges[stream] = Exchange(index: pending.count)
            pending.count += 1
            if let fault = core.connectionFault(connection: index, triggers: [.beforeRequest]) {
                note(fault)
                pending.exchanges[stream]?.settled = true
                act(fault.effect, on: stream, session, &pending, midMessage: false)
            }
        case .requestHead(let stream):
            guard var exchange = pending.exchanges[stream], !exchange.settled else { return }
            exchange.scripted = core.queuedResponse()
            exchange.timeline = ExchangeTimeline(fault: exchange.scripted?.fault)
            let cut = exchange.timeline.cutRequest(at: .requestHead)
            pending.exchanges[stream] = exchange
            if let cut { interrupt(stream, session, &pending, cut, body: []) }
        case .requestData(let stream):
            guard var exchange = pending.exchanges[stream], !exchange.settled, let request = session.requests[stream] else { return }
            if request.bodyTooLarge {
                let reason = "request body larger than the limit of \(core.maximumRequestBodySize)"
                pending.exchanges[stream]?.settled = true
                record(stream, exchange, session, body: request.body, failure: reason)
                answer(stream, ResponseEncoder.contentTooLarge(reason), isHead: false, session, &pending)
                // The response is the answer; the rest of the upload is not wanted (RFC 9113 §8.1).
                pending.resetOnceAnswered.insert(stream)
            } else if let cut = exchange.timeline.cutRequest(at: .requestBody(received: request.body.count, ended: false)) {
                pending.exchanges[stream] = exchange
                interrupt(stream, session, &pending, cut, body: Array(request.body.prefix(cut.keptBody)))
            }
        case .requestEnded(let stream):
            guard var exchange = pending.exchanges[stream], !exchange.settled else { return }
            let body = session.requests[stream]?.body ?? []
            if let cut = exchange.timeline.cutRequest(at: .requestBody(received: body.count, ended: true)) {
                pending.exchanges[stream] = exchange
                return interrupt(stream, session, &pending, cut, body: Array(body.prefix(cut.keptBody)))
            }
            exchange.settled = true
            let request = record(stream, exchange, session, body: body, failure: nil)
            let response = exchange.scripted ?? core.dispatch(request)
            exchange.scripted = response
            exchange.timeline.answer(with: response)
            pending.exchanges[stream] = exchange
            answer(stream, response, isHead: request.method == "HEAD", session, &pending)
        }
    }

    /// A request fault: records the request as far as it came, then acts (``MockFault/Effect/respond`` answers at
    /// once, and resets the stream once the answer is out).
    private func interrupt(
        _ stream: Int32, _ session: HTTP2Session, _ pending: inout Pending, _ cut: ExchangeTimeline.RequestCut, body: [UInt8]
    ) {
        guard let exchange = pending.exchanges[stream] else { return }
        note(cut.fault)
        pending.exchanges[stream]?.settled = true
        record(stream, exchange, session, body: body, failure: cut.failure)
        if cut.fault.effect == .respond, let scripted = exchange.scripted {
            answer(stream, scripted.with { $0.fault = nil }, isHead: false, session, &pending)
            pending.resetOnceAnswered.insert(stream)
        } else {
            act(cut.fault.effect, on: stream, session, &pending, midMessage: true)
        }
    }

    @discardableResult
    private func record(_ stream: Int32, _ exchange: Exchange, _ session: HTTP2Session, body: [UInt8], failure: String?) -> RecordedRequest
    {
        let fields = session.requests[stream]?.fields ?? []
        func pseudo(_ name: String) -> String { fields.first { $0.name == name }?.value ?? "" }
        let target = pseudo(":path")
        var request = RecordedRequest(
            method: pseudo(":method"), target: target, path: String(target.prefix { $0 != "?" }), version: "HTTP/2",
            headers: fields, body: Data(body), chunkSizes: nil, connectionIndex: index, exchangeIndex: exchange.index,
            sniName: sniName, tlsVersion: tlsVersion, failure: failure)
        request.streamID = Int(stream)
        core.record(request, bytesReceived: unreportedBytes)
        unreportedBytes = 0
        return request
    }

    // MARK: Answering

    /// Submits a response on the stream, with the faults its exchange's timeline fires before it and inside it; a
    /// response the server makes itself (an early answer, a `413`) carries none.
    private func answer(_ stream: Int32, _ response: MockResponse, isHead: Bool, _ session: HTTP2Session, _ pending: inout Pending) {
        if let fault = response.fault { note(fault) }
        if let delay = response.headDelay, !core.sleep(delay) { return finish(by: .server, kind: .fin) }
        var timeline =
            response.fault == nil
            ? ExchangeTimeline(fault: nil) : pending.exchanges[stream]?.timeline ?? ExchangeTimeline(fault: response.fault)
        defer { pending.exchanges[stream]?.timeline = timeline }
        if let fault = timeline.reach(.responseStart) {
            act(fault.effect, on: stream, session, &pending, midMessage: false, responseFollows: true)
            // Only a GOAWAY that counts the stream as processed lets the response follow.
            guard case .goAway = fault.effect.base, pending.closeAfter == stream, !closed else { return }
        }
        for interim in response.informational {
            session.submitHeaders(stream, fields: Self.fields(interim, bodyCount: nil), body: nil, final: false)
        }
        note(response.malformation)
        if let raw = response.malformation?.rawHTTP2Frames(response, stream: stream) {
            // The response's head or framing is broken below what nghttp2 would send: the frames go raw.
            guard flush(session), write(raw.bytes) else { return finish(by: .client, kind: .fin) }
            pending.exchanges[stream]?.responseEnded = true
            if let fault = timeline.reach(.responseEnd) {
                return act(fault.effect, on: stream, session, &pending, midMessage: timeline.cutsResponse)
            }
            if raw.thenClose { finish(by: .server, kind: .fin, closeNotify: false) }
            return
        }
        var cut = timeline.responseBodyLimit
        var bytes = isHead ? [] : [UInt8](response.body)
        var fields = Self.fields(response, bodyCount: response.chunked != nil || response.closeDelimited ? nil : response.body.count)
        response.malformation?.bend(&fields, &bytes, &cut, response)
        let body =
            bytes.isEmpty && cut == nil
            ? nil
            : HTTP2Session.Body(bytes: bytes, cut: cut, frameSizes: (response.chunked ?? []).filter { $0 > 0 }, throttle: response.throttle)
        session.submitHeaders(stream, fields: fields, body: body, final: true)
        pending.exchanges[stream]?.answered = true
        if response.closeConnection {
            session.submitGoAway(lastStreamID: stream, code: .noError)
            pending.closeAfter = stream
        }
    }

    /// The response's fields as HTTP/2 sends them: `:status` first, names in lower case, and the user's headers as
    /// written, even those HTTP/2 forbids (a `connection` field, a lying `content-length`), so tests can send them.
    static func fields(_ response: MockResponse, bodyCount: Int?) -> [(name: String, value: String)] {
        var fields = [(name: ":status", value: String(response.status))]
        fields += response.headers.map { (name: $0.name.lowercased(), value: $0.value) }
        if let bodyCount, response.header("Content-Length") == nil, response.status >= 200 {
            fields.append((name: "content-length", value: String(bodyCount)))
        }
        return fields
    }

    /// Carries out a fault's effect on a stream: HTTP/2's own effects act on the stream or the session, the rest on
    /// the connection as over HTTP/1.1.
    private func act(
        _ effect: MockFault.Effect, on stream: Int32, _ session: HTTP2Session, _ pending: inout Pending, midMessage: Bool,
        responseFollows: Bool = false
    ) {
        switch effect.base {
        case .resetStream(let code):
            session.submitReset(stream, code: code)
        case .goAway(let last, let code):
            let lastStreamID = last.map { Int32(clamping: $0) } ?? max(0, stream - 2)
            session.submitGoAway(lastStreamID: lastStreamID, code: code)
            // A graceful GOAWAY that counts the stream as processed lets its response finish, then closes; one with
            // an error code ends the connection at once, as a server that hit a fatal error does (RFC 9113 §5.4.1).
            // Before any response could follow (at the request's head, in its body), nothing would answer the stream.
            guard lastStreamID < stream || code != .noError || !responseFollows else {
                pending.closeAfter = stream
                session.release(stream)
                return
            }
            _ = flush(session)
            finish(by: .server, kind: .fin)
        case .awaitClientClose:
            // The close a `closeConnection` response planned is called off: the loop ends when the client closes.
            pending.closeAfter = nil
        case .zeroWindow:
            // The stream is never answered; a client with body left to send waits for window that never comes.
            session.submitZeroWindow()
        case .stall:
            // The stream is held, not the connection: its response (or the rest of it) never comes, its body is no
            // longer read (its window stays shut), and the server goes on serving the connection's other streams, as
            // one whose handler hangs does. A client's retry on the same connection is answered, as on a new one.
            session.hold(stream)
        case .http2Violation(let violation):
            guard flush(session) else { return finish(by: .client, kind: .fin) }
            guard write(violation.frame(stream: stream)) else { return finish(by: .client, kind: .fin) }
            guard let trickle = violation.trickle(stream: stream) else { return }
            // Paced on this connection's thread, which has nothing else to serve; a shutdown or a client gone ends it.
            for _ in 0..<trickle.count {
                guard core.sleep(trickle.interval) else { return }
                guard write(trickle.frame) else { return finish(by: .client, kind: .fin) }
            }
        default:
            perform(effect, midMessage: midMessage)
        }
    }
}
