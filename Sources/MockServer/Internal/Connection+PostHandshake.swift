internal import COpenSSL
import Foundation

/// TLS 1.3 post-handshake client authentication (RFC 8446 §4.6.2): asking for a certificate once the first
/// request's head was read, and taking in the client's answer before the request is served.
extension Connection {
    /// Asks the client for a certificate and reads its answer; `false` when the client was refused (or could not be
    /// asked), the request journaled and the connection closed.
    ///
    /// OpenSSL needs three steps on a blocking `SSL`: `SSL_verify_client_post_handshake` marks the request,
    /// `SSL_do_handshake` writes the CertificateRequest (and returns at once), and `SSL_read` takes in the client's
    /// Certificate, CertificateVerify and Finished, which arrive after the request head.
    func authenticateAfterHandshake(_ head: RequestHead, exchange: Int) -> Bool {
        askedAfterHandshake = true
        guard let ssl else { return false }
        ERR_clear_error()
        clientFinishedRead = false
        // Fails when the client did not offer post-handshake authentication (its ClientHello had no
        // post_handshake_auth extension): there is no way to ask it, so it is refused as one that sent nothing.
        guard SSL_verify_client_post_handshake(ssl) == 1, SSL_do_handshake(ssl) == 1 else {
            return refuse(head, exchange: exchange, ssl, "client certificate not asked: \(openSSLReason())")
        }
        // With auto-retry on (OpenSSL's default), the read that takes in the client's Finished goes on waiting for
        // application data, which a client waiting for its response never sends: both sides would wait for ever.
        // Off, SSL_read returns (SSL_ERROR_WANT_READ) after each handshake record, so the loop can stop at the Finished.
        _ = SSL_ctrl(ssl, SSL_CTRL_CLEAR_MODE, Int(SSL_MODE_AUTO_RETRY), nil)
        defer { _ = SSL_ctrl(ssl, SSL_CTRL_MODE, Int(SSL_MODE_AUTO_RETRY), nil) }
        // Bounded: each pass takes in at least one record from the client, and application data it sends meanwhile
        // (a request body) is kept for the exchange, up to the body limit.
        while !clientFinishedRead {
            let count = scratch.withUnsafeMutableBytes { Int(SSL_read(ssl, $0.baseAddress, Int32($0.count))) }
            if count > 0 {
                buffer.append(contentsOf: scratch[0..<count])
                unreportedBytes += count
                if buffer.count > core.maximumRequestBodySize + scratch.count {
                    return refuse(head, exchange: exchange, ssl, "client sent more than the body limit instead of its certificate")
                }
                continue
            }
            let error = SSL_get_error(ssl, Int32(count))
            guard error == SSL_ERROR_WANT_READ else {
                if error == SSL_ERROR_SYSCALL, errno == ECONNRESET { peerReset = true }
                return refuse(head, exchange: exchange, ssl, "client certificate refused: \(openSSLReason(fallback: "connection closed"))")
            }
        }
        recordClientCertificate(ssl, afterHandshake: true)
        return true
    }

    /// Journals the refusal with the request whose head was read, and closes without answering: after a fatal
    /// alert nothing more may be sent, not even `close_notify`.
    private func refuse(_ head: RequestHead, exchange: Int, _ ssl: OpaquePointer, _ reason: String) -> Bool {
        recordClientCertificate(ssl, afterHandshake: true)
        record(head, body: [], chunkSizes: nil, exchange: exchange, failure: reason)
        finish(by: .server, kind: .fin, closeNotify: alertSent == nil)
        return false
    }
}
