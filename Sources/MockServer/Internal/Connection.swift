#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL
import Foundation

/// One accepted connection, served on its own thread from accept to close: faults, TLS, then HTTP/1.1 exchanges.
///
/// Not shared between threads: only its own thread touches it, and it reports to the journal through ``ServerCore``.
/// The HTTP exchanges are in `Connection+Exchange.swift`; members are internal only so that file can reach them.
final class Connection {
    let core: ServerCore
    let index: Int
    let fd: Int32
    var ssl: OpaquePointer?
    var handshakeDone = false
    var sniName: String?
    var tlsVersion: String?
    /// The protocol ALPN selected, if any.
    var applicationProtocol: String?
    /// The last TLS alert the server wrote, and the chain the client presented, when the server asks for one.
    var alertSent: String?
    var presentedClientChain: [String] = []
    /// Whether the ClientHello offered a session (``ConnectionRecord/sessionOffered``), set by `TLSContext`'s callback.
    var sessionOffered = false
    /// Whether the server has asked for a certificate after the handshake, and whether the client's Finished
    /// that ends its answer was read.
    var askedAfterHandshake = false
    var clientFinishedRead = false
    /// Bytes read but not consumed yet (the start of a pipelined request, say).
    var buffer: [UInt8] = []
    var scratch = [UInt8](repeating: 0, count: 16 * 1024)
    /// Counted locally and flushed to the journal at each request and at close, to keep locking per request, not per read.
    var unreportedBytes = 0
    var peerReset = false
    var closed = false

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
        if let fault = core.connectionFault(connection: index, triggers: [.atAccept, .afterClientHello]) {
            note(fault)
            if fault.trigger == .afterClientHello { readFirstRecord() }
            return perform(fault.effect, midMessage: false)
        }
        if let tls = core.tls {
            guard handshake(tls) else { return }
            if applicationProtocol == "h2" { return serveHTTP2() }
            // Only a client that offered no ALPN gets here: HTTP/2 over TLS is never spoken without it.
            if tls.httpVersions == .http2Only { return finish(by: .server, kind: .fin) }
        }
        serveRequests()
    }

    // MARK: Faults

    /// Carries out a fault's effect where it fired: the one place where a fault becomes socket actions.
    ///
    /// ``MockFault/Effect/respond`` has no response to send here and closes, as a close does.
    /// - Parameter midMessage: Whether a request or response is half transferred, so that a close skips
    ///   `close_notify`, as a crashed peer would.
    func perform(_ effect: MockFault.Effect, midMessage: Bool) {
        switch effect.base {
        case .reset, .resetStream:
            finish(by: .server, kind: .reset)
        case .stall, .zeroWindow, .awaitClientClose:
            stall()
        case .http2Violation(let violation):
            _ = write(violation.frame(stream: 1))
            finish(by: .server, kind: .fin, closeNotify: !midMessage)
        case .plaintextReply:
            _ = ResponseEncoder.plaintextReply.withUnsafeBytes { Socket.sendAll(fd, $0) }
            finish(by: .server, kind: .fin, closeNotify: false)
        case .fatalAlert:
            // Raw on the socket even over an established TLS session: the client sees an unencrypted record.
            _ = ResponseEncoder.handshakeFailureAlert.withUnsafeBytes { Socket.sendAll(fd, $0) }
            finish(by: .server, kind: .fin, closeNotify: false)
        case .closeWithoutCloseNotify:
            finish(by: .server, kind: .fin, closeNotify: false)
        case .closeIdle:
            closeIdle()
        case .close, .respond, .goAway:
            finish(by: .server, kind: .fin, closeNotify: !midMessage)
        }
    }

    /// Reads the client's first TLS record (the ClientHello) off the socket, before OpenSSL sees it.
    func readFirstRecord() {
        // Bounded: at most a 5-byte header plus a 16 KiB record, and each read either grows the buffer or ends.
        while buffer.count < 5 { guard readRaw() else { return } }
        guard buffer[0] == 0x16 else { return }
        let length = 5 + (Int(buffer[3]) << 8 | Int(buffer[4]))
        while buffer.count < length { guard readRaw() else { return } }
    }

    func readRaw() -> Bool {
        let count = scratch.withUnsafeMutableBytes { Socket.receive(fd, into: $0) }
        guard count > 0 else {
            if count < 0, errno == ECONNRESET { peerReset = true }
            return false
        }
        buffer.append(contentsOf: scratch[0..<count])
        if core.tls == nil { unreportedBytes += count }
        return true
    }

    /// Sends `close_notify` and FIN, then counts the application bytes the client still sends (decrypted: the
    /// client's own `close_notify` in answer is no request) until it closes its side, shutdown comes, or 10 seconds
    /// pass.
    func closeIdle() {
        if let ssl, handshakeDone { SSL_shutdown(ssl) }
        shutdown(fd, Int32(SHUT_WR))
        Socket.waitForFINAcknowledged(fd)
        // Closed as far as the client can tell: its kernel has the FIN. The journal says so now, while the server
        // still listens.
        core.updateConnection(index) {
            $0.closedBy = .server
            $0.closeKind = .fin
        }
        let before = buffer.count
        let deadline = ContinuousClock.now + .seconds(10)
        while ContinuousClock.now < deadline, !core.isShuttingDown {
            guard Socket.waitReadable(fd, milliseconds: 50) else { continue }
            guard readMore() else { break }
        }
        let late = buffer[before...]
        // Over HTTP/2 only what carries a request counts: a SETTINGS acknowledgement or a PING is no request.
        let received = applicationProtocol == "h2" ? Self.requestFrameBytes(in: late) : late.count
        core.updateConnection(index) { $0.bytesAfterClose += received }
        finish(by: .server, kind: .fin, closeNotify: false)
    }

    /// The bytes of the HTTP/2 frames that carry requests (HEADERS, CONTINUATION, DATA) in what a client sent, frame
    /// headers included; a frame cut short counts what arrived of it.
    static func requestFrameBytes(in bytes: ArraySlice<UInt8>) -> Int {
        var offset = bytes.startIndex
        var total = 0
        while bytes.endIndex - offset >= 9 {
            let length = Int(bytes[offset]) << 16 | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2])
            let frame = min(9 + length, bytes.endIndex - offset)
            if [0x0, 0x1, 0x9].contains(bytes[offset + 3]) { total += frame }
            offset += frame
        }
        return total
    }

    /// Holds the connection without sending: returns when the client closes it or shutdown wakes the read.
    func stall() {
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

    // MARK: Reading and writing application bytes

    /// Appends what the client sent next to `buffer`; false at EOF, reset or error.
    func readMore() -> Bool {
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

    func write(_ bytes: [UInt8]) -> Bool {
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

    func write(_ bytes: [UInt8], throttle: MockResponse.Throttle?) -> Bool {
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

    // MARK: Closing

    func note(_ fault: MockFault) {
        core.updateConnection(index) { $0.fault = fault }
    }

    func note(_ malformation: MockResponse.Malformation?) {
        guard let malformation else { return }
        core.updateConnection(index) { $0.malformation = malformation }
    }

    /// The read side ended: the client closed or reset, unless shutdown woke the read.
    func finishReading() {
        finish(by: .client, kind: .fin)
    }

    func finish(by closer: ConnectionRecord.Closer, kind: ConnectionRecord.CloseKind, closeNotify: Bool = true) {
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
