internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore

// The OpenSSL callbacks of TLS client authentication, installed on each connection's `SSL_CTX` by
// `sslContextCallback`. A server asks in its handshake (or, under TLS 1.3, after it); OpenSSL has already verified
// the server by then, so no identity goes to a server the client refused (TRUST-11).

/// Asks the handler which identity to present, when (and only when) the server asked for a certificate, and
/// installs it on the connection. Returning 0 abandons the handshake.
let clientCertificateCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _ in
    guard let ssl, let connection = ConnectionTrust.of(ssl) else { return 0 }
    let issuers = acceptableIssuers(ssl)
    let challenge = ClientCertificateChallenge(
        host: connection.host, port: connection.port, acceptableIssuers: issuers, isReusedConnection: false)
    let disposition = connection.context.handler?.handle(challenge) ?? .performDefaultHandling
    // No certificate: and none an earlier request on this connection (after the handshake) installed.
    if disposition == .performDefaultHandling { SSL_certs_clear(ssl) }
    let answer = ClientCertificateExchange.Answer.of(disposition) { present($0, on: ssl) }
    let exchange = ClientCertificateExchange(acceptableIssuers: issuers, answer: answer)
    connection.clientCertificate = exchange
    connection.currentTransfer?.clientCertificate = exchange
    connection.context.metrics?.clientCertificateRequested(answer)
    connection.context.logger.debug(
        "TLS client certificate requested", metadata: ["host": "\(connection.host)", "answer": "\(answer)"])
    switch answer {
    case .presented, .none: return 1
    case .cancelled, .unusable: return 0
    }
}

/// Records a fatal alert from a server that asked for a client certificate: under TLS 1.3 it refuses one only
/// after the client's handshake has finished, so the alert is the only word of why the next read fails.
let alertCallback: @convention(c) (OpaquePointer?, Int32, Int32) -> Void = { ssl, situation, value in
    // TLS 1.3 receivers ignore an alert's level (RFC 8446 §6), so a refusal counts whatever level it was sent at.
    guard situation & SSL_CB_READ_ALERT != 0, value >> 8 == 2 || ClientCertificateExchange.isRefusal(value & 0xff),
        let connection = ConnectionTrust.of(ssl), connection.clientCertificate != nil
    else { return }
    connection.clientCertificate?.fatalAlert = value & 0xff
    connection.currentTransfer?.clientCertificate?.fatalAlert = value & 0xff
}

/// The names of the CAs the server accepts, from its certificate request.
private func acceptableIssuers(_ ssl: OpaquePointer) -> [String] {
    guard let names = SSL_get_client_CA_list(ssl) else { return [] }
    return (0..<cshims_sk_X509_NAME_num(names)).map { OpenSSLCertificate.name(cshims_sk_X509_NAME_value(names, $0)) }
}

/// Installs an identity on a connection; OpenSSL's reason when it refused (a key or signature its security level
/// forbids, say), `nil` once installed.
private func present(_ identity: ClientIdentity, on ssl: OpaquePointer) -> String? {
    guard let certificates = OwnedCertificates.parsing(der: identity.certificateChain), let key = OwnedKey(pkcs8: identity.privateKey),
        let chain = cshims_sk_X509_new_null()
    else { return "the identity's certificates or key cannot be parsed (\(openSSLReason()))" }
    defer { cshims_sk_X509_pop_free(chain) }
    for certificate in certificates.all.dropFirst() {
        X509_up_ref(certificate)  // the stack frees what it holds
        if cshims_sk_X509_push(chain, certificate) == 0 {
            X509_free(certificate)
            return "out of memory"
        }
    }
    // SSL_use_cert_and_key takes references of its own, and refuses a key that is not the leaf's.
    guard SSL_use_cert_and_key(ssl, certificates.leaf, key.pointer, chain, 1) == 1 else { return openSSLReason() }
    return nil
}

extension CurlTransfer {

    /// Whether the connection this transfer is about to reuse presented the client identity its handler would
    /// present now (TRUST-12); asked only when the connection's server asked for a certificate. `false` sends the
    /// request on a new connection instead, or ends it when the handler cancels.
    func keepsClientIdentity(of connection: ConnectionTrust) -> Bool {
        guard let exchange = connection.clientCertificate else { return true }
        switch exchange.reuse(by: trust.handler, host: connection.host, port: connection.port) {
        case .sameAnswer:
            return true
        case .cancelled:
            trust.metrics?.clientCertificateRefused(connection: .reused)
            clientCertificate = ClientCertificateExchange(acceptableIssuers: exchange.acceptableIssuers, answer: .cancelled)
            return false
        case .anotherAnswer:
            break
        }
        clientCertificate = nil
        // Starting over is safe only before any response: after one (a redirect), it would send the first request
        // again, a POST included, so the fetch fails instead.
        if heads.head == nil { startOverOnNewConnection() } else { stopForAnotherIdentity() }
        return false
    }
}
