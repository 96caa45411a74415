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
        if let scripted, let fault = scripted.fault, interruptsRequest(head, fault, scripted, exchange: exchange) { return }
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
        case .contentLength(let length):
            while buffer.count < length {
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
            body = decoder.body
            chunkSizes = decoder.chunkSizes
        }

        let request = record(head, body: body, chunkSizes: chunkSizes, exchange: exchange, failure: nil)
        let response = scripted ?? core.dispatch(request)
        respond(response, to: head)
    }

    /// Fires a fault whose trigger falls inside the request; true when it did, and the exchange is over.
    private func interruptsRequest(_ head: RequestHead, _ fault: MockFault, _ scripted: MockResponse, exchange: Int) -> Bool {
        switch fault.trigger.base {
        case .afterRequestHead:
            note(fault)
            record(head, body: [], chunkSizes: nil, exchange: exchange, failure: "body not read (\(fault))")
        case .afterRequestBodyBytes(let count):
            note(fault)
            if head.expectsContinue, !write(ResponseEncoder.continueLine) {
                finish(by: .client, kind: .fin)
                return true
            }
            // Bounded by the body limit too, so a huge count cannot make the server buffer without end.
            let limit = min(count, core.maximumRequestBodySize)
            while buffer.count < limit, readMore() {}
            let body = Array(buffer.prefix(limit))
            buffer.removeAll()
            record(head, body: body, chunkSizes: nil, exchange: exchange, failure: "server cut the request body after \(body.count) bytes")
        default:
            return false
        }
        if fault.effect == .respond {
            respondAndClose(
                scripted.with {
                    $0.fault = nil
                    $0.closeConnection = true
                })
        } else {
            perform(fault.effect, midMessage: true)
        }
        return true
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

    func respond(_ response: MockResponse, to head: RequestHead) {
        if let fault = response.fault { note(fault) }
        if let delay = response.headDelay, !core.sleep(delay) { return finish(by: .server, kind: .fin) }

        // A fault whose moment came before the response fires now, in place of it (late faults included).
        if let fault = response.fault, fault.trigger.precedesResponse, fault.effect.endsExchange {
            return perform(fault.effect, midMessage: false)
        }

        note(response.malformation)
        let encoded = ResponseEncoder.encode(response, forHeadRequest: head.method == "HEAD")
        var bytes = encoded.head + encoded.body
        if case .afterResponseBodyBytes(let count)? = response.fault?.trigger.base {
            bytes = Array(bytes.prefix(encoded.head.count + count))
        }
        guard write(bytes, throttle: response.throttle) else {
            return finish(by: core.isShuttingDown ? .server : .client, kind: .fin)
        }

        if let fault = response.fault, !fault.trigger.precedesResponse, fault.effect.endsExchange {
            let cut = fault.trigger != .afterResponse
            return perform(fault.effect, midMessage: cut)
        }
        if encoded.mustClose || head.wantsClose { finish(by: .server, kind: .fin) }
    }
}
