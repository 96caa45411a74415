import Foundation

/// Reading requests and answering them, with the request- and response-phase faults.
extension Connection {
    func serveRequests() {
        var exchange = 0
        // Ends when the client closes, a response closes, a fault fires, or shutdown wakes a blocked read.
        while !closed {
            if buffer.isEmpty, !readMore() { return finishReading() }
            // Consulted only once request bytes arrived, so an idle keep-alive connection consumes nothing.
            if let fault = core.connectionFault(connection: index, triggers: [.beforeRequest]) {
                note(fault)
                return perform(fault.effect, midMessage: false)
            }
            guard let head = readHead(exchange: exchange) else { return }
            if core.tls?.asksAfterHandshake == true, !askedAfterHandshake, !authenticateAfterHandshake(head, exchange: exchange) {
                return
            }
            serve(head, exchange: exchange)
            exchange += 1
        }
    }

    func readHead(exchange: Int) -> RequestHead? {
        while true {
            switch HTTPRequestParser.parseHead(buffer) {
            case .complete(let head):
                buffer.removeFirst(head.length)
                return head
            case .invalid(let reason):
                record(
                    RequestHead(method: "", target: "", version: "", fields: [], framing: .none, length: 0),
                    body: [], chunkSizes: nil, exchange: exchange, failure: reason)
                respondAndClose(ResponseEncoder.badRequest(reason))
                return nil
            case .incomplete:
                guard readMore() else {
                    finishReading()
                    return nil
                }
            }
        }
    }

    func serve(_ head: RequestHead, exchange: Int) {
        let scripted = core.queuedResponse()
        var timeline = ExchangeTimeline(fault: scripted?.fault)
        if let cut = timeline.cutRequest(at: .requestHead) { return interrupt(head, cut, scripted, exchange: exchange, body: []) }
        if case .contentLength(let length) = head.framing, length > core.maximumRequestBodySize {
            let reason = "request body of \(length) bytes is larger than the limit of \(core.maximumRequestBodySize)"
            record(head, body: [], chunkSizes: nil, exchange: exchange, failure: reason)
            return respondAndClose(ResponseEncoder.contentTooLarge(reason))
        }
        if head.expectsContinue, head.framing != .none, !write(ResponseEncoder.continueLine) {
            return finish(by: .client, kind: .fin)
        }
        var chunkSizes: [Int]?
        let body: [UInt8]
        switch head.framing {
        case .none:
            body = []
            if let cut = timeline.cutRequest(at: .requestBody(received: 0, ended: true)) {
                return interrupt(head, cut, scripted, exchange: exchange, body: [])
            }
        case .contentLength(let length):
            while true {
                let received = min(buffer.count, length)
                if let cut = timeline.cutRequest(at: .requestBody(received: received, ended: received == length)) {
                    let kept = Array(buffer.prefix(cut.keptBody))
                    buffer.removeAll()
                    return interrupt(head, cut, scripted, exchange: exchange, body: kept)
                }
                if received == length { break }
                guard readMore() else {
                    record(
                        head, body: buffer, chunkSizes: nil, exchange: exchange,
                        failure: "client closed after \(buffer.count) of \(length) body bytes")
                    return finishReading()
                }
            }
            body = Array(buffer.prefix(length))
            buffer.removeFirst(length)
        case .chunked:
            var decoder = ChunkedBodyDecoder(maximumBodySize: core.maximumRequestBodySize)
            var consumed = 0
            decoding: while true {
                switch decoder.decode(buffer, index: &consumed) {
                case .done:
                    break decoding
                case .needMore:
                    // The decoder copied what it consumed; dropping it keeps the wire bytes from piling up too.
                    buffer.removeFirst(consumed)
                    consumed = 0
                    if let cut = timeline.cutRequest(at: .requestBody(received: decoder.body.count, ended: false)) {
                        buffer.removeAll()
                        return interrupt(head, cut, scripted, exchange: exchange, body: Array(decoder.body.prefix(cut.keptBody)))
                    }
                    guard readMore() else {
                        record(
                            head, body: decoder.body, chunkSizes: decoder.chunkSizes, exchange: exchange,
                            failure: "client closed inside the chunked body")
                        return finishReading()
                    }
                case .invalid(let reason):
                    record(head, body: decoder.body, chunkSizes: decoder.chunkSizes, exchange: exchange, failure: reason)
                    return respondAndClose(ResponseEncoder.badRequest(reason))
                case .tooLarge:
                    let reason = "chunked request body larger than the limit of \(core.maximumRequestBodySize)"
                    record(head, body: decoder.body, chunkSizes: decoder.chunkSizes, exchange: exchange, failure: reason)
                    return respondAndClose(ResponseEncoder.contentTooLarge(reason))
                }
            }
            buffer.removeFirst(consumed)
            if let cut = timeline.cutRequest(at: .requestBody(received: decoder.body.count, ended: true)) {
                return interrupt(head, cut, scripted, exchange: exchange, body: Array(decoder.body.prefix(cut.keptBody)))
            }
            body = decoder.body
            chunkSizes = decoder.chunkSizes
        }

        let request = record(head, body: body, chunkSizes: chunkSizes, exchange: exchange, failure: nil)
        let response = scripted ?? core.dispatch(request)
        timeline.answer(with: response)
        respond(response, to: head, timeline: &timeline)
    }

    /// A request fault: records the request as far as it came, then acts (``MockFault/Effect/respond`` answers at
    /// once, then closes).
    private func interrupt(
        _ head: RequestHead, _ cut: ExchangeTimeline.RequestCut, _ scripted: MockResponse?, exchange: Int, body: [UInt8]
    ) {
        note(cut.fault)
        record(head, body: body, chunkSizes: nil, exchange: exchange, failure: cut.failure)
        if cut.fault.effect == .respond, let scripted {
            respondAndClose(
                scripted.with {
                    $0.fault = nil
                    $0.closeConnection = true
                })
        } else {
            perform(cut.fault.effect, midMessage: true)
        }
    }

    @discardableResult
    func record(_ head: RequestHead, body: [UInt8], chunkSizes: [Int]?, exchange: Int, failure: String?) -> RecordedRequest {
        let request = RecordedRequest(
            method: head.method, target: head.target, path: head.path, version: head.version,
            headers: head.fields.map { (name: $0.name, value: $0.value) }, body: Data(body), chunkSizes: chunkSizes,
            connectionIndex: index, exchangeIndex: exchange, sniName: sniName, tlsVersion: tlsVersion, failure: failure)
        core.record(request, bytesReceived: unreportedBytes)
        unreportedBytes = 0
        return request
    }

    // MARK: Answering

    func respondAndClose(_ response: MockResponse) {
        note(response.malformation)
        let encoded = ResponseEncoder.encode(response)
        guard write(encoded.head + encoded.body) else { return finish(by: .client, kind: .fin) }
        finish(by: .server, kind: .fin)
    }

    func respond(_ response: MockResponse, to head: RequestHead, timeline: inout ExchangeTimeline) {
        if let fault = response.fault { note(fault) }
        if let delay = response.headDelay, !core.sleep(delay) { return finish(by: .server, kind: .fin) }

        // A fault whose moment came before the response fires now, in place of it (late faults included).
        if let fault = timeline.reach(.responseStart) { return perform(fault.effect, midMessage: false) }

        note(response.malformation)
        let encoded = ResponseEncoder.encode(response, forHeadRequest: head.method == "HEAD")
        var bytes = encoded.head + encoded.body
        if let limit = timeline.responseBodyLimit { bytes = Array(bytes.prefix(encoded.head.count + limit)) }
        guard write(bytes, throttle: response.throttle) else {
            return finish(by: core.isShuttingDown ? .server : .client, kind: .fin)
        }

        if let fault = timeline.reach(.responseEnd) { return perform(fault.effect, midMessage: timeline.cutsResponse) }
        if encoded.mustClose || head.wantsClose { finish(by: .server, kind: .fin) }
    }
}
