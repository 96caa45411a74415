internal import COpenSSL
internal import COpenSSLShims
import Foundation
internal import NetworkCore

/// The client-certificate side of a handshake: the alert the server sends, and what the journal keeps.
extension Connection {
    /// Lets OpenSSL tell this connection which alert the server writes (a refused client certificate's, say), which
    /// chain the client presented, before verification can throw it away, and when it has read a client Finished.
    func watchClientCertificate(_ ssl: OpaquePointer) {
        SSL_set_info_callback(ssl) { ssl, event, value in
            guard let ssl, let owner = SSL_get_ex_data(ssl, 0) else { return }
            let connection = Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue()
            if event & SSL_CB_WRITE_ALERT == SSL_CB_WRITE_ALERT { connection.alertSent = TLSAlert.name(value & 0xFF) }
            // The only sign that a post-handshake answer is complete: OpenSSL 3.0 reports no SSL_CB_HANDSHAKE_DONE
            // for it, and the state is back to TLS_ST_OK before SSL_read returns.
            if event & SSL_CB_LOOP != 0, SSL_get_state(ssl) == TLS_ST_SR_FINISHED { connection.clientFinishedRead = true }
        }
    }

    /// Journals the chain the client presented and OpenSSL's verdict on it, after the handshake (or the
    /// post-handshake request) succeeded or failed.
    func recordClientCertificate(_ ssl: OpaquePointer, afterHandshake: Bool = false) {
        let result = Int(SSL_get_verify_result(ssl))
        let record = ConnectionRecord.ClientCertificate(
            presentedSubjects: presentedClientChain, verifyResult: result,
            verifyReason: String(cString: X509_verify_cert_error_string(result)), alertSent: alertSent,
            requestedAfterHandshake: afterHandshake)
        core.updateConnection(index) { $0.clientCertificate = record }
    }

    /// The subjects of a presented chain: its leaf, then the certificates sent with it.
    static func subjects(_ store: OpaquePointer) -> [String] {
        var subjects = X509_STORE_CTX_get0_cert(store).map { [subject(of: $0)] } ?? []
        if let untrusted = X509_STORE_CTX_get0_untrusted(store) {
            // Bounded: a client sends a short chain, and a long one is cut in the journal.
            for index in 1..<max(1, min(Int(OPENSSL_sk_num(untrusted)), 16)) {
                if let certificate = OPENSSL_sk_value(untrusted, Int32(index)) { subjects.append(subject(of: OpaquePointer(certificate))) }
            }
        }
        return subjects
    }

    static func subject(of certificate: OpaquePointer) -> String {
        guard let name = X509_get_subject_name(certificate), let bio = BIO_new(BIO_s_mem()) else { return "" }
        defer { BIO_free(bio) }
        X509_NAME_print_ex(bio, name, 0, cshims_XN_FLAG_RFC2253())
        var text: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 256)
        // Bounded by the name's size: each read drains the memory BIO.
        while case let count = BIO_read(bio, &chunk, Int32(chunk.count)), count > 0 { text += chunk[0..<Int(count)] }
        return String(decoding: text, as: UTF8.self)
    }
}

/// OpenSSL's client-certificate verification callback: keeps the presented chain for the journal, then lets
/// OpenSSL's own verdict stand.
let clientCertificateVerifyCallback: SSL_verify_cb = { preverified, store in
    guard let store, let ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx()),
        let owner = SSL_get_ex_data(OpaquePointer(ssl), 0)
    else { return preverified }
    let connection = Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue()
    if connection.presentedClientChain.isEmpty { connection.presentedClientChain = Connection.subjects(store) }
    return preverified
}
