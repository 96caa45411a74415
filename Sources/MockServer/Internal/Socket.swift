import Glibc
import Foundation

/// Thin wrappers over the POSIX socket calls the server needs, so the rest reads as intent.
enum Socket {
    /// Creates a listening TCP socket on `address` (IPv4 or IPv6 literal) and returns it with its bound port.
    static func listen(address: String, port: Int) throws -> (fd: Int32, port: Int) {
        let isIPv6 = address.contains(":")
        let fd = socket(isIPv6 ? AF_INET6 : AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw bindError("socket", address) }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))

        let bound: Int32
        if isIPv6 {
            var addr = sockaddr_in6()
            addr.sin6_family = sa_family_t(AF_INET6)
            addr.sin6_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET6, address, &addr.sin6_addr) == 1 else {
                close(fd)
                throw MockServerError(code: .bindFailed, message: "not an IP address: \(address)")
            }
            bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in6>.size)) }
            }
        } else {
            var addr = sockaddr_in()
            addr.sin_family = sa_family_t(AF_INET)
            addr.sin_port = UInt16(port).bigEndian
            guard inet_pton(AF_INET, address, &addr.sin_addr) == 1 else {
                close(fd)
                throw MockServerError(code: .bindFailed, message: "not an IP address: \(address)")
            }
            bound = withUnsafePointer(to: &addr) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
        }
        guard bound == 0 else {
            let error = bindError("bind", "\(address):\(port)")
            close(fd)
            throw error
        }
        guard Glibc.listen(fd, 512) == 0 else {
            let error = bindError("listen", address)
            close(fd)
            throw error
        }
        return (fd, localPort(fd))
    }

    static func localPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        return port(of: storage)
    }

    static func peerPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        return port(of: storage)
    }

    private static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        let family = Int32(storage.ss_family)
        return withUnsafePointer(to: &storage) { pointer in
            if family == AF_INET6 {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin6_port)) }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { Int(UInt16(bigEndian: $0.pointee.sin_port)) }
        }
    }

    /// Waits up to `milliseconds` for `fd` to become readable (or hung up); false on timeout.
    static func waitReadable(_ fd: Int32, milliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, milliseconds) > 0
    }

    enum AcceptOutcome: Equatable {
        case accepted(Int32)
        /// Nothing pending any more, interrupted, or a connection aborted before it was taken.
        case nothing
        /// The process (EMFILE) or the system (ENFILE) has no descriptor left for the connection.
        case outOfDescriptors
    }

    static func accept(_ listener: Int32) -> AcceptOutcome {
        let fd = Glibc.accept(listener, nil, nil)
        guard fd >= 0 else { return errno == EMFILE || errno == ENFILE ? .outOfDescriptors : .nothing }
        var yes: Int32 = 1
        // Responses go out in one write; Nagle would only add latency to small ones.
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &yes, socklen_t(MemoryLayout<Int32>.size))
        return .accepted(fd)
    }

    /// A descriptor held in reserve, to be given up when the table is full; -1 when none could be opened.
    static func openSpare() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Makes the next `close` send RST instead of FIN.
    static func armReset(_ fd: Int32) {
        var option = linger(l_onoff: 1, l_linger: 0)
        setsockopt(fd, SOL_SOCKET, SO_LINGER, &option, socklen_t(MemoryLayout<linger>.size))
    }

    /// Sends FIN, then drains what the client still sends for a short while before closing: closing with
    /// unread bytes in the receive buffer would turn the FIN into an RST and hide the response from the client.
    static func lingeringClose(_ fd: Int32, budgetMilliseconds: Int = 200) {
        shutdown(fd, Int32(SHUT_WR))
        var scratch = [UInt8](repeating: 0, count: 4096)
        let deadline = ContinuousClock.now + .milliseconds(budgetMilliseconds)
        while ContinuousClock.now < deadline {
            guard waitReadable(fd, milliseconds: 20) else { continue }
            let count = scratch.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
        }
        close(fd)
    }

    /// Waits (at most a second) until the peer's kernel has acknowledged the FIN this side sent: on a loaded machine
    /// loopback segments are delivered by a deferred softirq, so `shutdown` can return before the peer holds the FIN.
    /// After it, the peer's socket reports the close to any poll.
    static func waitForFINAcknowledged(_ fd: Int32) {
        let finWait2: UInt8 = 5
        let timeWait: UInt8 = 6
        let closing: UInt8 = 11  // TCP_FIN_WAIT2, TCP_TIME_WAIT, TCP_CLOSING
        let deadline = ContinuousClock.now + .seconds(1)
        while ContinuousClock.now < deadline {
            var info = tcp_info()
            var length = socklen_t(MemoryLayout<tcp_info>.size)
            guard getsockopt(fd, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return }
            if [finWait2, timeWait, closing].contains(info.tcpi_state) { return }
            usleep(200)  // no event says "acknowledged": a short pause leaves the CPU to the peer that must ACK
        }
    }

    static func receive(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let count = recv(fd, buffer.baseAddress, buffer.count, 0)
            if count < 0, errno == EINTR { continue }
            return count
        }
    }

    /// Writes all bytes; false when the peer is gone. MSG_NOSIGNAL keeps a dead peer from raising SIGPIPE.
    static func sendAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let count = send(fd, bytes.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            if count < 0, errno == EINTR { continue }
            if count <= 0 { return false }
            offset += count
        }
        return true
    }

    static func errnoText(_ code: Int32 = errno) -> String { String(cString: strerror(code)) }

    private static func bindError(_ call: String, _ what: String) -> MockServerError {
        MockServerError(code: .bindFailed, message: "\(call) \(what) failed: \(errnoText())")
    }
}
