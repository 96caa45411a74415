internal import CCurl
internal import CShims
internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore

// The libcurl and OpenSSL callbacks that apply a `TLSTrustContext`. Each check ends in one `TrustVerdict`,
// stored on the transfer it decides; error mapping reads that value.

/// The `SSL_CTX` ex-data slot that owns a `ConnectionTrust`, released when libcurl frees the context.
let connectionTrustIndex: Int32 = CRYPTO_get_ex_new_index(
    CRYPTO_EX_INDEX_SSL_CTX, 0, nil, nil, nil,
    { _, pointer, _, _, _, _ in
        guard let pointer else { return }
        Unmanaged<ConnectionTrust>.fromOpaque(pointer).release()
    })

let sslContextCallback: curl_ssl_ctx_callback = { easy, sslContext, userdata in
    guard let easy, let sslContext, let userdata, let endpoint = CurlEndpoint.of(easy) else {
        return CURLE_SSL_CONNECT_ERROR
    }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    guard case .success(let roots) = transfer.trust.roots.store else { return CURLE_SSL_CACERT_BADFILE }
    let connection = ConnectionTrust(
        host: endpoint.host, port: endpoint.port, context: transfer.trust, transfer: transfer,
        socket: transfer.lastOpenedSocket.flatMap { ConnectedSocket(connected: $0, toPort: endpoint.port) })
    let context = OpaquePointer(sslContext)
    let retained = Unmanaged.passRetained(connection).toOpaque()
    guard SSL_CTX_set_ex_data(context, connectionTrustIndex, retained) == 1 else {
        Unmanaged<ConnectionTrust>.fromOpaque(retained).release()
        return CURLE_SSL_CONNECT_ERROR
    }
    SSL_CTX_set1_cert_store(context, roots)
    SSL_CTX_set_cert_verify_callback(context, certificateVerifyCallback, retained)
    // libcurl's CURLOPT_SSL_VERIFYPEER is off (see `TLSTrustContext.configure`), so libcurl asked for
    // SSL_VERIFY_NONE, under which OpenSSL would ignore the verification callback's refusal: ask for
    // SSL_VERIFY_PEER, and refuse the connection if that did not hold.
    SSL_CTX_set_verify(context, SSL_VERIFY_PEER, nil)
    guard SSL_CTX_get_verify_mode(context) & SSL_VERIFY_PEER != 0 else { return CURLE_SSL_CONNECT_ERROR }
    // A renegotiation would verify again after the transfer that made the connection is gone. SSL_OP_NO_RENEGOTIATION
    // is SSL_OP_BIT(30), a function-like macro Swift cannot import. The call returns the new options, not a status.
    _ = SSL_CTX_set_options(context, UInt64(1) << 30)
    // A server may ask who the client is; the handler answers, and the server's verdict is recorded.
    SSL_CTX_set_cert_cb(context, clientCertificateCallback, nil)
    if transfer.trust.stapleCheck.asksForStaple {
        guard cshims_SSL_CTX_set_tlsext_status_type(context, TLSEXT_STATUSTYPE_ocsp) == 1,
            cshims_SSL_CTX_set_tlsext_status_cb(context, stapledResponseCallback) == 1
        else { return CURLE_SSL_CONNECT_ERROR }
    }
    SSL_CTX_set_info_callback(context, infoCallback)
    if transfer.trust.sessions != nil {
        // Sessions go to the stack's cache only (`newSessionCallback`), none to this connection's own context.
        _ = cshims_SSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_CLIENT | SSL_SESS_CACHE_NO_INTERNAL_STORE))
        SSL_CTX_sess_set_new_cb(context, newSessionCallback)
    }
    return CURLE_OK
}

/// OpenSSL's report of a connection's progress: a new handshake may offer a kept session, a finished one says whether
/// the server resumed it, and a fatal alert may be the server's refusal of the client certificate.
private let infoCallback: @convention(c) (OpaquePointer?, Int32, Int32) -> Void = { ssl, situation, value in
    if situation & SSL_CB_HANDSHAKE_START != 0 { offerKeptSession(ssl) }
    if situation & SSL_CB_HANDSHAKE_DONE != 0, let ssl, let connection = ConnectionTrust.of(ssl) {
        connection.resumed = connection.offered != nil && SSL_session_reused(ssl) == 1
        connection.speaksTLS13 = SSL_version(ssl) >= TLS1_3_VERSION
    }
    alertCallback(ssl, situation, value)
}

/// Sets the session kept for the connection's host and port on it before its ClientHello, when it may be offered.
private func offerKeptSession(_ ssl: OpaquePointer?) {
    guard let ssl, SSL_in_before(ssl) == 1, let connection = ConnectionTrust.of(ssl), connection.offered == nil,
        let sessions = connection.context.sessions,
        let session = sessions.take(connection.sessionKey, now: Int(time(nil))),
        connection.context.mayOffer(session.kept, host: connection.host, port: connection.port),
        SSL_set_session(ssl, session.pointer) == 1
    else { return }
    connection.offered = session
}

/// Keeps a copy of a session the server issued on a connection it was trusted on. A copy, because OpenSSL may share the
/// object with the connection, and marks it not resumable when the connection ends without a close_notify (as an
/// HTTP/2 server closing after GOAWAY does), which TLS since 1.1 no longer asks of a client. Returns 0: the original
/// stays OpenSSL's.
private let newSessionCallback: @convention(c) (OpaquePointer?, OpaquePointer?) -> Int32 = { ssl, session in
    guard let ssl, let session, let connection = ConnectionTrust.of(ssl), let sessions = connection.context.sessions,
        let kept = connection.keptTrust, SSL_SESSION_is_resumable(session) == 1, let copy = SSL_SESSION_dup(session)
    else { return 0 }
    if !sessions.keep(copy, for: connection.sessionKey, kept: kept) { SSL_SESSION_free(copy) }
    return 0
}

/// Replaces OpenSSL's chain verification: runs standard validation (``ChainCheck``, the same code as the offline
/// verifier), then lets the handler decide. Returning 0 fails the handshake before any request byte is sent.
private let certificateVerifyCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, argument in
    guard let store, let argument else { return 0 }
    let connection = Unmanaged<ConnectionTrust>.fromOpaque(argument).takeUnretainedValue()
    let context = connection.context
    let outcome = context.chainCheck.run(store, host: connection.host)
    let verdict: TrustVerdict
    var summarised = OpenSSLCertificate.Summaries()  // the built chain holds the served certificates again
    if let served = summarised.of(X509_STORE_CTX_get0_untrusted(store)), let built = summarised.of(X509_STORE_CTX_get0_chain(store)) {
        // A chain OpenSSL could not verify is not a verified chain, whatever path it got as far as building; only
        // a host-name failure (checked after the whole chain verified) keeps it.
        let evidence = TrustVerdict.Evidence(
            host: connection.host, port: connection.port, served: served, verified: outcome.chainVerified ? built : [],
            standard: outcome.failure.map { .failure($0) } ?? .success(()))
        connection.evidence = evidence
        verdict = context.judge(evidence, reused: false)
        connection.replayablePeriod = context.replayablePeriod(
            of: outcome.chainVerified ? X509_STORE_CTX_get0_chain(store) : X509_STORE_CTX_get0_untrusted(store))
        connection.leafDemandsStaple = StapledResponseCheck.demandsStaple(X509_STORE_CTX_get0_cert(store))
    } else {
        // A certificate that cannot be encoded cannot be judged: refuse rather than judge the others.
        verdict = TrustVerdict(
            evidence: nil,
            refusal: .chainNotTrusted(
                ChainValidationFailure(
                    kind: .other, code: Int(X509_V_ERR_APPLICATION_VERIFICATION), reason: "a certificate of the chain cannot be encoded",
                    depth: 0)))
    }
    connection.transfer?.trustVerdict = verdict
    connection.isTrusted = verdict.isAccepted
    context.metrics?.handshakeJudged(verdict)
    // libcurl reads the verify result after the handshake, so it must agree with the verdict.
    if verdict.isAccepted {
        X509_STORE_CTX_set_error(store, X509_V_OK)
    } else if outcome.failure == nil || X509_STORE_CTX_get_error(store) == X509_V_OK {
        X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION)
    }
    return verdict.isAccepted ? 1 : 0
}

/// Judges the OCSP response a server stapled (or its absence), once the handshake has verified and accepted the
/// chain: OpenSSL calls this after the certificate verification callback, when a TLS 1.2 server's
/// CertificateStatus message has arrived too. Returning 0 fails the handshake with a `bad_certificate_status_response`
/// alert.
private let stapledResponseCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { ssl, _ in
    guard let ssl, let connection = ConnectionTrust.of(ssl) else { return 0 }
    // A resumed handshake brings no staple and ran no verification: its session's kept trust is judged before the
    // first request (a session is never offered where a staple is needed).
    if connection.offered != nil, connection.evidence == nil, SSL_session_reused(ssl) == 1 { return 1 }
    guard let evidence = connection.evidence else { return 0 }
    var bytes: UnsafePointer<UInt8>?
    let length = cshims_SSL_get_tlsext_status_ocsp_resp(ssl, &bytes)
    let response = bytes.map { length > 0 ? Array(UnsafeBufferPointer(start: $0, count: length)) : [] }
    // Only a verified chain names the issuer the response must come from; a chain a handler accepted unverified was
    // refused already (`TLSTrustContext.judge`).
    let chain = evidence.verified.isEmpty ? nil : SSL_get0_verified_chain(ssl)
    guard let failure = connection.context.stapleCheck.check(response, chain: chain) else { return 1 }
    let refused = TrustVerdict.Evidence(
        host: evidence.host, port: evidence.port, served: evidence.served, verified: evidence.verified, standard: .failure(failure))
    connection.evidence = refused
    connection.isTrusted = false
    let verdict = TrustVerdict(evidence: refused, refusal: .chainNotTrusted(failure))
    connection.transfer?.trustVerdict = verdict
    // The handshake was counted when its chain was accepted; the staple's refusal counts as a refusal of it.
    connection.context.metrics?.trustRefused(verdict, connection: .new)
    connection.context.logger.warning(
        "TLS stapled OCSP response refused", metadata: ["host": "\(evidence.host)", "reason": "\(failure)"])
    return 0
}

/// Checks a connection before each request that did not just verify it in its own handshake (a reused
/// connection, or one a redirect reuses), with that connection's handshake evidence; a refusal aborts with no
/// request byte sent.
let preRequestCallback: curl_prereq_callback = { userdata, _, _, _, _ in
    guard let userdata else { return CURL_PREREQFUNC_ABORT }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    guard transfer.startingRequest(overHTTP2: speaksHTTP2(transfer)) else { return CURL_PREREQFUNC_ABORT }
    let connection = connectionTrust(of: transfer)
    // A pooled connection the server closed while it was idle never carries a request (HTTP-21), nor does one whose
    // resumed session could not be judged.
    if case .found(let found) = connection, found.transfer !== transfer, found.serverHasClosed || found.isRetired,
        transfer.leaveConnectionClosedByServer()
    {
        return CURL_PREREQFUNC_ABORT
    }
    if case .found(let found) = connection, found.transfer === transfer, found.evidence == nil, found.resumed {
        guard judgeResumed(found, for: transfer) else { return CURL_PREREQFUNC_ABORT }
    }
    let verdict = recheck(transfer, connection)
    if let verdict {
        transfer.trustVerdict = verdict
        transfer.trust.metrics?.trustRefused(verdict, connection: .reused)
    }
    guard verdict?.isAccepted ?? true else { return CURL_PREREQFUNC_ABORT }
    guard case .found(let connection) = connection else { return CURL_PREREQFUNC_OK }
    // The request about to go out is this transfer's, whoever made the connection: an alert, or a request for a
    // certificate after the handshake, now concerns it.
    connection.currentTransfer = transfer
    transfer.clientCertificate = connection.clientCertificate
    guard connection.transfer !== transfer else { return CURL_PREREQFUNC_OK }
    return transfer.keepsClientIdentity(of: connection) ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

/// Judges a connection that resumed a session, before the first request of the transfer that made it (TRUST-17); whether
/// the request may go out. A kept verdict that no longer holds retires the connection and starts the transfer over on a
/// new one, whose full handshake judges the server afresh.
private func judgeResumed(_ connection: ConnectionTrust, for transfer: CurlTransfer) -> Bool {
    guard let offered = connection.offered, let verdict = transfer.trust.judgeResumption(offered.kept) else {
        connection.isRetired = true
        transfer.startOverOnNewConnection()
        return false
    }
    let kept = offered.kept
    connection.adopt(kept, trusted: verdict.isAccepted)
    transfer.trustVerdict = verdict
    guard verdict.isAccepted else { return false }
    // A TLS 1.2 server may issue nothing new on a resumption: a copy of the session goes back, to be offered again (a
    // copy: the connection shares the original, which OpenSSL marks not resumable if the connection ends uncleanly).
    if let sessions = transfer.trust.sessions, !connection.speaksTLS13, let copy = SSL_SESSION_dup(offered.pointer),
        !sessions.keep(copy, for: connection.sessionKey, kept: kept, unlessNewer: true)
    {
        SSL_SESSION_free(copy)
    }
    return true
}

/// Whether the connection a transfer is about to use speaks HTTP/2 (ALPN chose `h2`); plain HTTP never does here.
private func speaksHTTP2(_ transfer: CurlTransfer) -> Bool {
    guard let info = transfer.easy.pointer(CURLINFO_TLS_SSL_PTR, as: curl_tlssessioninfo.self),
        info.pointee.backend == CURLSSLBACKEND_OPENSSL, let ssl = info.pointee.internals
    else { return false }
    var selected: UnsafePointer<UInt8>?
    var length: UInt32 = 0
    SSL_get0_alpn_selected(OpaquePointer(ssl), &selected, &length)
    guard let selected, length == 2 else { return false }
    return selected[0] == UInt8(ascii: "h") && selected[1] == UInt8(ascii: "2")
}

/// The connection a transfer is about to use, as the pre-request check finds it.
private enum ConnectionLookup {
    /// Plain HTTP: nothing to check.
    case plain
    /// An HTTPS connection with no trust record this stack can read.
    case unreadable(TrustVerdict)
    case found(ConnectionTrust)
}

/// The trust record of the connection a transfer is about to use.
private func connectionTrust(of transfer: CurlTransfer) -> ConnectionLookup {
    guard let info = transfer.easy.pointer(CURLINFO_TLS_SSL_PTR, as: curl_tlssessioninfo.self),
        info.pointee.backend == CURLSSLBACKEND_OPENSSL, let ssl = info.pointee.internals
    else {
        // No OpenSSL connection: fine for plain HTTP, never for HTTPS.
        return transfer.isHTTPS
            ? .unreadable(TrustVerdict(evidence: nil, refusal: .notJudged("an HTTPS connection without OpenSSL"))) : .plain
    }
    guard let connection = ConnectionTrust.of(OpaquePointer(ssl)) else {
        return .unreadable(TrustVerdict(evidence: nil, refusal: .notJudged("a connection this stack did not set up")))
    }
    return .found(connection)
}

/// The verdict on the connection a transfer is about to use; `nil` when nothing needs judging (plain HTTP, or
/// the transfer's own handshake just judged it).
private func recheck(_ transfer: CurlTransfer, _ lookup: ConnectionLookup) -> TrustVerdict? {
    let connection: ConnectionTrust
    switch lookup {
    case .plain: return nil
    case .unreadable(let refusal): return refusal
    case .found(let found): connection = found
    }
    guard let evidence = connection.evidence else {
        return TrustVerdict(evidence: nil, refusal: .notJudged("a connection that was never verified"))
    }
    if connection.transfer === transfer { return nil }  // this transfer's own handshake just decided
    guard let endpoint = CurlEndpoint.of(transfer.easy.handle), connection.host == endpoint.host, connection.port == endpoint.port else {
        return TrustVerdict(evidence: evidence, refusal: .notJudged("a connection verified for another host"))
    }
    // Without a handler, standard validation passed when the connection was made, and nothing can change it.
    guard transfer.trust.handler != nil else { return nil }
    return transfer.trust.judge(evidence, reused: true)
}

/// Notes each socket libcurl opens for a transfer, so that the connection's trust record knows its socket.
let socketOpenedCallback: curl_sockopt_callback = { clientp, descriptor, _ in
    if let clientp { Unmanaged<CurlTransfer>.fromOpaque(clientp).takeUnretainedValue().lastOpenedSocket = descriptor }
    return Int32(CURL_SOCKOPT_OK)
}
