import Foundation

/// Reading requests and answering them, with the request- and response-phase faults.
extension Connection {
    func serveRequests() {
        var exchange = 0
        // Ends when the client closes, a response closes, a fault fires, or shutdown wakes a blocked read.
        while !closed {
            if buffer.isEmpty, !readMore() { return finishReading() }
            // Consulted only once request bytes arrived, so an idle keep-alive connection consumes nothing.
            if let fault = core.connectionFault(connection: index, phases: [.beforeRequest]) {
                note(fault)
                return finish(by: .server, kind: .fin)
            }
            guard let head = readHead(exchange: exchange) else { return }
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
                record(RequestHead(method: "", target: "", version: "", fields: [], framing: .none, length: 0),
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
        switch scripted?.fault {
        case .answerWithoutReadingBody?:
            note(.answerWithoutReadingBody)
            record(head, body: [], chunkSizes: nil, exchange: exchange, failure: "body not read (answerWithoutReadingBody)")
            var response = scripted!
            response.fault = nil
            response.closeConnection = true
            respondAndClose(response)
            return
        case .closeAfterRequestBodyBytes(let limit)?, .resetAfterRequestBodyBytes(let limit)?:
            note(scripted!.fault!)
            if head.expectsContinue, !write(ResponseEncoder.continueLine) { return finish(by: .client, kind: .fin) }
            // Bounded by `limit`: each read grows the buffer or ends the loop.
            while buffer.count < limit, readMore() {}
            let body = Array(buffer.prefix(limit))
            buffer.removeAll()
            record(head, body: body, chunkSizes: nil, exchange: exchange, failure: "server cut the request body after \(body.count) bytes")
            if case .resetAfterRequestBodyBytes = scripted!.fault! { return finish(by: .server, kind: .reset) }
            return finish(by: .server, kind: .fin, closeNotify: false)
        default:
            break
        }

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
                    record(head, body: buffer, chunkSizes: nil, exchange: exchange, failure: "client closed after \(buffer.count) of \(length) body bytes")
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
                        record(head, body: decoder.body, chunkSizes: decoder.chunkSizes, exchange: exchange, failure: "client closed inside the chunked body")
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
        let encoded = ResponseEncoder.encode(response)
        guard write(encoded.head + encoded.body) else { return finish(by: .client, kind: .fin) }
        finish(by: .server, kind: .fin)
    }

    func respond(_ response: MockResponse, to head: RequestHead) {
        if let fault = response.fault { note(fault) }
        if let delay = response.headDelay, !core.sleep(delay) { return finish(by: .server, kind: .fin) }

        switch response.fault {
        case .stallAfterRequest?, .stallAtAccept?, .stallAfterClientHello?:
            return stall()
        case .closeWithNoReply?, .closeAtAccept?, .closeAfterClientHello?, .closeBeforeReadingRequest?:
            return finish(by: .server, kind: .fin)
        case .resetWithNoReply?, .resetAtAccept?, .resetAfterClientHello?:
            return finish(by: .server, kind: .reset)
        case .closeAfterRequestBodyBytes?:
            // From a dispatcher, which only runs once the body was read: the nearest effect is no reply.
            return finish(by: .server, kind: .fin)
        case .resetAfterRequestBodyBytes?:
            return finish(by: .server, kind: .reset)
        case .garbageThenClose(let garbage)?:
            _ = write(Array(garbage))
            return finish(by: .server, kind: .fin)
        case .plaintextReplyToClientHello?:
            _ = ResponseEncoder.plaintextReply.withUnsafeBytes { Socket.sendAll(fd, $0) }
            return finish(by: .server, kind: .fin, closeNotify: false)
        case .fatalAlertAfterClientHello?:
            // Raw on the socket as at accept: over an established TLS session the client sees an unencrypted record.
            _ = ResponseEncoder.handshakeFailureAlert.withUnsafeBytes { Socket.sendAll(fd, $0) }
            return finish(by: .server, kind: .fin, closeNotify: false)
        default:
            break
        }

        let encoded = ResponseEncoder.encode(response, forHeadRequest: head.method == "HEAD")
        var bytes = encoded.head + encoded.body
        switch response.fault {
        case .closeAfterBodyBytes(let count)?, .resetAfterBodyBytes(let count)?, .stallAfterBodyBytes(let count)?:
            bytes = Array(bytes.prefix(encoded.head.count + max(0, count)))
        default:
            break
        }
        guard write(bytes, throttle: response.throttle) else {
            return finish(by: core.isShuttingDown ? .server : .client, kind: .fin)
        }

        switch response.fault {
        case .closeAfterBodyBytes?:
            finish(by: .server, kind: .fin, closeNotify: false)
        case .resetAfterBodyBytes?:
            finish(by: .server, kind: .reset)
        case .stallAfterBodyBytes?:
            stall()
        case .closeWithoutCloseNotify?:
            finish(by: .server, kind: .fin, closeNotify: false)
        default:
            if encoded.mustClose || head.wantsClose { finish(by: .server, kind: .fin) }
        }
    }
}
