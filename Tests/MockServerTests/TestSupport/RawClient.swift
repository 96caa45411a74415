#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A bare TCP client for bytes no real HTTP client would send.
enum RawClient {
    struct Failure: Error { let text: String }

    /// Opens a TCP connection and leaves it idle; the caller closes the returned descriptor.
    static func connectIdle(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard fd >= 0, connected == 0 else { throw Failure(text: "connect: \(errno)") }
        return fd
    }

    /// Connects to 127.0.0.1:`port`, sends `bytes`, and returns everything received until the server closes
    /// (or 3 seconds pass).
    static func exchange(port: Int, _ bytes: [UInt8]) throws -> [UInt8] {
        let fd = try connectIdle(port: port)
        defer { close(fd) }
        return exchange(on: fd, bytes)
    }

    /// Sends `bytes` on the connected descriptor `fd` and returns everything received until the server closes
    /// (or 3 seconds pass); the caller still owns `fd`.
    static func exchange(on fd: Int32, _ bytes: [UInt8]) -> [UInt8] {
        var timeout = timeval(tv_sec: 3, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        _ = bytes.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count <= 0 { break }
            received += buffer[0..<count]
        }
        return received
    }
}
