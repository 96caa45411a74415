#if canImport(Glibc)
import Glibc
#endif

/// The socket of one TLS connection, watched for the server's FIN before a request goes on the connection again.
///
/// libcurl 7.88's own liveness check of a pooled TLS connection peeks one byte, and the `close_notify` a server sends
/// before its FIN is such a byte: the connection passes for alive, and the request goes into it. A FIN is certain:
/// the server will never answer there.
struct ConnectedSocket {
    let descriptor: Int32

    /// The socket, if it is connected to a peer on `port`: libcurl may have opened others for the same transfer (one
    /// per address it raced), closed by the time the TLS handshake runs on the one that won.
    init?(connected descriptor: Int32, toPort port: Int) {
        var address = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(descriptor, $0, &length) }
        }
        guard named == 0 else { return nil }
        let peerPort: UInt16
        switch Int32(address.ss_family) {
        case AF_INET: peerPort = withUnsafeBytes(of: &address) { $0.load(as: sockaddr_in.self).sin_port }
        case AF_INET6: peerPort = withUnsafeBytes(of: &address) { $0.load(as: sockaddr_in6.self).sin6_port }
        default: return nil
        }
        guard Int(UInt16(bigEndian: peerPort)) == port else { return nil }
        self.descriptor = descriptor
    }

    /// Whether the peer has shut down its side: its FIN has arrived (`POLLRDHUP`), or the socket failed.
    var peerHasClosed: Bool {
        // Glibc defines POLLRDHUP (0x2000) only under _GNU_SOURCE, which Swift's import of it leaves out.
        let peerClosedWriting: Int16 = 0x2000
        var watched = pollfd(fd: descriptor, events: peerClosedWriting, revents: 0)
        guard poll(&watched, 1, 0) == 1 else { return false }
        return watched.revents & (peerClosedWriting | Int16(POLLHUP | POLLERR | POLLNVAL)) != 0
    }
}
