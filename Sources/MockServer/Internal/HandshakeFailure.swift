internal import COpenSSL
internal import COpenSSLShims

/// Who ended a failed TLS handshake, decided from OpenSSL's error codes, never from its message text.
enum HandshakeFailure {
    /// The side that ended the handshake, given `SSL_get_error`'s answer and the library and reason of the
    /// first error in OpenSSL's queue.
    ///
    /// An alert received from the client is queued by OpenSSL as reason `SSL_AD_REASON_OFFSET` plus the alert
    /// number; an end of stream is `SSL_ERROR_SYSCALL` (OpenSSL 1.1 style) or `SSL_R_UNEXPECTED_EOF_WHILE_READING`.
    /// Anything else is the server refusing (and alerting), such as no shared version or cipher.
    static func closer(sslError: Int32, library: Int32, reason: Int32) -> ConnectionRecord.Closer {
        if sslError == SSL_ERROR_SYSCALL || sslError == SSL_ERROR_ZERO_RETURN { return .client }
        guard library == ERR_LIB_SSL else { return .server }
        if reason == SSL_R_UNEXPECTED_EOF_WHILE_READING { return .client }
        let alertRange = Int32(SSL_AD_REASON_OFFSET)...Int32(SSL_AD_REASON_OFFSET) + 255
        return alertRange.contains(reason) ? .client : .server
    }

    /// The same, read from OpenSSL's state right after a failed `SSL_accept`.
    static func closer(sslError: Int32) -> ConnectionRecord.Closer {
        let code = ERR_peek_error()
        return closer(sslError: sslError, library: cshims_ERR_GET_LIB(code), reason: cshims_ERR_GET_REASON(code))
    }
}
