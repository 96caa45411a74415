#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL
import Foundation

/// One accepted connection, served on its own thread from accept to close: faults, TLS, then HTTP/1.1 exchanges.
///
/// Not shared between threads: only its own thread touches it, and it reports to the journal through ``ServerCore``.
final class Connection {
    private let core: ServerCore
    private let index: Int
    private let fd: Int32
    private var ssl: OpaquePointer?
    private var handshakeDone = false
    private var sniName: String?
    private var tlsVersion: String?
    /// Bytes read but not consumed yet (the start of a pipelined request, say).
    private var buffer: [UInt8] = []
    private var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    /// Counted locally and flushed to the journal at each request and at close, to keep locking per request, not per read.
    private var unreportedBytes = 0
    private var peerReset = false
    private var closed = false

    init(core: ServerCore, index: Int, fd: Int32) {
        self.core = core
        self.index = index
        self.fd = fd
    }

    func run() {
        defer {
            if !closed { finish(by: .server, kind: .fin) }
            core.threadFinished()
        }
        if let fault = core.connectionFault(connection: index, phases: [.accept, .clientHello]) {
            note(fault)
            if fault.phase == .clientHello { readFirstRecord() }
            performConnectionFault(fault)
            return
        }
        if let tls = core.tls {
            guard handshake(tls) else { return }
        }
        serveRequests()
    }

    // MARK: Faults before any request

    private func performConnectionFault(_ fault: MockFault) {
        switch fault {
        case .closeAtAccept, .closeAfterClientHello, .closeBeforeReadingRequest:
            finish(by: .server, kind: .fin, closeNotify: false)
        case .resetAtAccept, .resetAfterClientHello:
            finish(by: .server, kind: .reset)
        case .stallAtAccept, .stallAfterClientHello:
            stall()
        case .plaintextReplyToClientHello:
            _ = ResponseEncoder.plaintextReply.withUnsafeBytes { Socket.sendAll(fd, $0) }
            finish(by: .server, kind: .fin, closeNotify: false)
        default:
            finish(by: .server, kind: .fin, closeNotify: false)
        }
    }

    /// Reads the client's first TLS record (the ClientHello) off the socket, before OpenSSL sees it.
    private func readFirstRecord() {
        // Bounded: at most a 5-byte header plus a 16 KiB record, and each read either grows the buffer or ends.
        while buffer.count < 5 { guard readRaw() else { return } }
        guard buffer[0] == 0x16 else { return }
        let length = 5 + (Int(buffer[3]) << 8 | Int(buffer[4]))
        while buffer.count < length { guard readRaw() else { return } }
    }

    private func readRaw() -> Bool {
        let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
        guard count > 0 else {
            if count < 0, errno == ECONNRESET { peerReset = true }
            return false
        }
        buffer.append(contentsOf: scratch[0..<count])
        if core.tls == nil { unreportedBytes += count }
        return true
    }

    /// Holds the connection without sending: returns when the client closes it or shutdown wakes the read.
    private func stall() {
        var scratch = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
            if count <= 0 {
                if count < 0, errno == ECONNRESET { peerReset = true }
                break
            }
        }
        finish(by: .client, kind: .fin, closeNotify: false)
    }

    // MARK: TLS

    private func handshake(_ tls: TLSContext) -> Bool {
        ERR_clear_error()
        guard let ssl = SSL_new(tls.defaultContext) else {
            core.updateConnection(index) { $0.handshake = .failed("SSL_new failed: \(openSSLReason())") }
            return false
        }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        let result = SSL_accept(ssl)
        guard result == 1 else {
            let error = SSL_get_error(ssl, result)
            let systemError = errno
            let reason = openSSLReason(fallback: error == SSL_ERROR_SYSCALL
                ? (systemError == 0 ? "client closed the connection during the handshake" : Socket.errnoText(systemError))
                : "handshake failed (SSL_get_error \(error))")
            if systemError == ECONNRESET { peerReset = true }
            core.updateConnection(index) { $0.handshake = .failed(reason) }
            // An alert or an EOF came from the client; anything else is the server refusing (and alerting).
            let byClient = reason.contains("alert") || error == SSL_ERROR_SYSCALL || reason.contains("eof")
            finish(by: byClient ? .client : .server, kind: .fin, closeNotify: false)
            return false
        }
        handshakeDone = true
        sniName = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
        tlsVersion = String(cString: SSL_get_version(ssl))
        let reused = SSL_session_reused(ssl) == 1
        core.updateConnection(index) { [sniName, tlsVersion] in
            $0.handshake = .succeeded
            $0.sniName = sniName
            $0.tlsVersion = tlsVersion
            $0.sessionReused = reused
        }
        return true
    }

    // MARK: Reading and writing application bytes

    /// Appends what the client sent next to `buffer`; false at EOF, reset or error.
    private func readMore() -> Bool {
        let count: Int
        if let ssl {
            count = scratch.withUnsafeMutableBytes { Int(SSL_read(ssl, $0.baseAddress, Int32($0.count))) }
            if count <= 0 {
                if SSL_get_error(ssl, Int32(count)) == SSL_ERROR_SYSCALL, errno == ECONNRESET { peerReset = true }
                return false
            }
        } else {
            count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
            if count <= 0 {
                if count < 0, errno == ECONNRESET { peerReset = true }
                return false
            }
        }
        buffer.append(contentsOf: scratch[0..<count])
        unreportedBytes += count
        return true
    }

    private func write(_ bytes: [UInt8]) -> Bool {
        guard !bytes.isEmpty else { return true }
        return bytes.withUnsafeBytes { raw in
            if let ssl {
                var offset = 0
                while offset < raw.count {
                    let count = SSL_write(ssl, raw.baseAddress! + offset, Int32(min(raw.count - offset, Int(Int32.max))))
                    if count <= 0 { return false }
                    offset += Int(count)
                }
                return true
            }
            return Socket.sendAll(fd, raw)
        }
    }

    private func write(_ bytes: [UInt8], throttle: MockResponse.Throttle?) -> Bool {
        guard let throttle else { return write(bytes) }
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + throttle.bytes)
            guard write(Array(bytes[offset..<end])) else { return false }
            offset = end
            if offset < bytes.count, !core.sleep(throttle.interval) { return false }
        }
        return true
    }

    // MARK: HTTP exchanges

    private func serveRequests() {
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

    private func readHead(exchange: Int) -> RequestHead? {
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

    private func serve(_ head: RequestHead, exchange: Int) {
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
            var decoder = ChunkedBodyDecoder()
            var consumed = 0
            decoding: while true {
                switch decoder.decode(buffer, index: &consumed) {
                case .done:
                    break decoding
                case .needMore:
                    guard readMore() else {
                        record(head, body: decoder.body, chunkSizes: decoder.chunkSizes, exchange: exchange, failure: "client closed inside the chunked body")
                        return finishReading()
                    }
                case .invalid(let reason):
                    record(head, body: decoder.body, chunkSizes: decoder.chunkSizes, exchange: exchange, failure: reason)
                    return respondAndClose(ResponseEncoder.badRequest(reason))
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
    private func record(_ head: RequestHead, body: [UInt8], chunkSizes: [Int]?, exchange: Int, failure: String?) -> RecordedRequest {
        let request = RecordedRequest(
            method: head.method, target: head.target, path: head.path, version: head.version,
            headers: head.fields.map { (name: $0.name, value: $0.value) }, body: Data(body), chunkSizes: chunkSizes,
            connectionIndex: index, exchangeIndex: exchange, sniName: sniName, tlsVersion: tlsVersion, failure: failure)
        core.record(request, bytesReceived: unreportedBytes)
        unreportedBytes = 0
        return request
    }

    // MARK: Answering

    private func respondAndClose(_ response: MockResponse) {
        let encoded = ResponseEncoder.encode(response)
        guard write(encoded.head + encoded.body) else { return finish(by: .client, kind: .fin) }
        finish(by: .server, kind: .fin)
    }

    private func respond(_ response: MockResponse, to head: RequestHead) {
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

    // MARK: Closing

    private func note(_ fault: MockFault) {
        core.updateConnection(index) { $0.fault = fault }
    }

    /// The read side ended: the client closed or reset, unless shutdown woke the read.
    private func finishReading() {
        finish(by: .client, kind: .fin)
    }

    private func finish(by closer: ConnectionRecord.Closer, kind: ConnectionRecord.CloseKind, closeNotify: Bool = true) {
        guard !closed else { return }
        closed = true
        let shuttingDown = core.isShuttingDown
        if let ssl {
            if handshakeDone, closeNotify, kind == .fin, closer == .server, !shuttingDown { SSL_shutdown(ssl) }
        }
        core.release(socket: index)
        if kind == .reset {
            Socket.armReset(fd)
            close(fd)
        } else if closer == .server, !shuttingDown {
            Socket.lingeringClose(fd)
        } else {
            close(fd)
        }
        if let ssl { SSL_free(ssl) }
        ssl = nil
        let bytes = unreportedBytes
        unreportedBytes = 0
        let recordedCloser: ConnectionRecord.Closer = shuttingDown && closer == .client ? .server : closer
        let recordedKind: ConnectionRecord.CloseKind = closer == .client && peerReset ? .reset : kind
        core.updateConnection(index) {
            $0.applicationBytesReceived += bytes
            $0.closedBy = recordedCloser
            $0.closeKind = recordedKind
        }
    }
}
