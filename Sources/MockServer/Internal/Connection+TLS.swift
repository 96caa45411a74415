#if canImport(Glibc)
import Glibc
#endif
internal import COpenSSL
import Foundation

/// The connection's TLS handshake, before any HTTP byte.
extension Connection {
    func handshake(_ tls: TLSContext) -> Bool {
        ERR_clear_error()
        guard let ssl = SSL_new(tls.defaultContext) else {
            core.updateConnection(index) { $0.handshake = .failed("SSL_new failed: \(openSSLReason())") }
            return false
        }
        self.ssl = ssl
        SSL_set_fd(ssl, fd)
        // The callbacks find their connection here (the client-hello one, and those of client certificates).
        SSL_set_ex_data(ssl, 0, Unmanaged.passUnretained(self).toOpaque())
        if tls.asksForClientCertificate { watchClientCertificate(ssl) }
        let result = SSL_accept(ssl)
        if tls.asksForClientCertificate, !tls.asksAfterHandshake { recordClientCertificate(ssl) }
        guard result == 1 else {
            let error = SSL_get_error(ssl, result)
            let systemError = errno
            let reason = openSSLReason(
                fallback: error == SSL_ERROR_SYSCALL
                    ? (systemError == 0 ? "client closed the connection during the handshake" : Socket.errnoText(systemError))
                    : "handshake failed (SSL_get_error \(error))")
            if systemError == ECONNRESET { peerReset = true }
            // A client that resumed and then refused the server closes at once, and the server's tickets, written
            // after the client's Finished, fail the handshake here: the resumption was agreed all the same.
            let reused = SSL_session_reused(ssl) == 1
            core.updateConnection(index) { [sessionOffered] in
                $0.handshake = .failed(reason)
                $0.sessionOffered = sessionOffered
                $0.sessionReused = reused
            }
            finish(by: HandshakeFailure.closer(sslError: error), kind: .fin, closeNotify: false)
            return false
        }
        handshakeDone = true
        sniName = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name).map { String(cString: $0) }
        tlsVersion = String(cString: SSL_get_version(ssl))
        let reused = SSL_session_reused(ssl) == 1
        var selected: UnsafePointer<UInt8>?
        var selectedLength: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &selectedLength)
        applicationProtocol = selected.map { String(decoding: UnsafeBufferPointer(start: $0, count: Int(selectedLength)), as: UTF8.self) }
        core.updateConnection(index) { [sniName, tlsVersion, applicationProtocol, sessionOffered] in
            $0.applicationProtocol = applicationProtocol
            $0.handshake = .succeeded
            $0.sniName = sniName
            $0.tlsVersion = tlsVersion
            $0.sessionOffered = sessionOffered
            $0.sessionReused = reused
        }
        return true
    }
}
