internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// The server's OpenSSL contexts: one per identity, the default one choosing among them by SNI.
///
/// Immutable after init and only read by connection threads; OpenSSL's `SSL_CTX` is safe to share for `SSL_new`.
final class TLSContext: @unchecked Sendable {
    let defaultContext: OpaquePointer
    let httpVersions: MockServer.TLS.HTTPVersions
    /// Whether the server asks clients for a certificate, in the handshake or after it.
    let asksForClientCertificate: Bool
    /// Whether it asks after the handshake (TLS 1.3 post-handshake authentication), once a request head was read.
    let asksAfterHandshake: Bool
    /// The TLS 1.2 session IDs issued, for ``ConnectionRecord/sessionOffered``.
    let issuedSessionIDs = IssuedSessionIDs()
    private let contextsByName: [String: OpaquePointer]
    private let allContexts: [OpaquePointer]

    init(_ configuration: MockServer.TLS) throws {
        httpVersions = configuration.httpVersions
        asksForClientCertificate = configuration.clientAuthentication.caFile != nil
        asksAfterHandshake = configuration.clientAuthentication.asksAfterHandshake
        if asksAfterHandshake { try Self.checkPostHandshakeAuthentication(configuration) }
        var created: [OpaquePointer] = []
        do {
            let main = try Self.makeContext(configuration.identity, configuration)
            created.append(main)
            var byName: [String: OpaquePointer] = [:]
            for (name, identity) in configuration.sniIdentities {
                let context = try Self.makeContext(identity, configuration)
                created.append(context)
                byName[name.lowercased()] = context
            }
            defaultContext = main
            contextsByName = byName
            allContexts = created
        } catch {
            created.forEach { SSL_CTX_free($0) }
            throw error
        }
        SSL_CTX_set_client_hello_cb(defaultContext, clientHelloSeen, nil)
        if !contextsByName.isEmpty {
            // The callback captures nothing (C function pointer); the dictionary travels through the arg pointer,
            // which stays valid because this object outlives every SSL made from its contexts.
            let arg = Unmanaged.passUnretained(self).toOpaque()
            _ = cshims_SSL_CTX_set_tlsext_servername_callback(
                defaultContext,
                { ssl, _, arg in
                    guard let ssl, let arg, let name = SSL_get_servername(ssl, TLSEXT_NAMETYPE_host_name) else {
                        return SSL_TLSEXT_ERR_OK
                    }
                    let contexts = Unmanaged<TLSContext>.fromOpaque(arg).takeUnretainedValue()
                    if let context = contexts.contextsByName[String(cString: name).lowercased()] {
                        SSL_set_SSL_CTX(ssl, context)
                    }
                    return SSL_TLSEXT_ERR_OK
                }, arg)
        }
    }

    deinit {
        allContexts.forEach { SSL_CTX_free($0) }
    }

    private static func makeContext(_ identity: MockServer.TLS.Identity, _ configuration: MockServer.TLS) throws -> OpaquePointer {
        ERR_clear_error()
        guard let context = SSL_CTX_new(TLS_server_method()) else {
            throw MockServerError(code: .tlsSetupFailed, message: "SSL_CTX_new failed: \(openSSLReason())")
        }
        do {
            // Before the chain is loaded: loading checks each certificate's key against the level.
            if configuration.servesWeakChains { SSL_CTX_set_security_level(context, 0) }
            try loadChain(identity.chainFile, into: context)
            guard SSL_CTX_use_PrivateKey_file(context, identity.keyFile, SSL_FILETYPE_PEM) == 1 else {
                throw MockServerError(code: .invalidKey, message: "cannot load key \(identity.keyFile): \(openSSLReason())")
            }
            guard SSL_CTX_check_private_key(context) == 1 else {
                throw MockServerError(
                    code: .invalidKey,
                    message: "key \(identity.keyFile) does not match the leaf of \(identity.chainFile): \(openSSLReason())")
            }
            if let file = identity.stapledOCSPResponseFile { try StapledResponse.install(file: file, on: context) }
            // Serve the file's chain as written: never let OpenSSL complete or reorder it from a store.
            _ = SSL_CTX_ctrl(context, SSL_CTRL_MODE, Int(SSL_MODE_NO_AUTO_CHAIN), nil)

            let low = configuration.minimumVersion
            let high = configuration.maximumVersion
            if min(low, high) < .tls12 {
                // OpenSSL 3's default security level refuses TLS 1.0/1.1 even when the range allows them.
                SSL_CTX_set_security_level(context, 0)
                _ = SSL_CTX_set_cipher_list(context, "DEFAULT:@SECLEVEL=0")
            }
            if let cipherList = configuration.cipherList, SSL_CTX_set_cipher_list(context, cipherList) != 1 {
                throw MockServerError(code: .tlsSetupFailed, message: "invalid cipher list '\(cipherList)': \(openSSLReason())")
            }
            if let cipherSuites = configuration.cipherSuites, SSL_CTX_set_ciphersuites(context, cipherSuites) != 1 {
                throw MockServerError(code: .tlsSetupFailed, message: "invalid TLS 1.3 cipher suites '\(cipherSuites)': \(openSSLReason())")
            }
            guard cshims_SSL_CTX_set_min_proto_version(context, protocolVersion(low)) == 1,
                cshims_SSL_CTX_set_max_proto_version(context, protocolVersion(high)) == 1
            else {
                throw MockServerError(code: .tlsSetupFailed, message: "invalid TLS version range: \(openSSLReason())")
            }

            // The versions travel as the callback's argument, a small integer, so nothing has to outlive the context.
            SSL_CTX_set_alpn_select_cb(
                context, alpnSelect, UnsafeMutableRawPointer(bitPattern: ALPNChoice(configuration.httpVersions).rawValue))

            try configureClientAuthentication(context, configuration)

            if configuration.sessionResumption {
                try configureResumption(context, configuration.resumption)
            } else {
                // Every connection must run a full handshake, or the client's certificate checks are skipped.
                _ = cshims_SSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_OFF))
                _ = SSL_CTX_set_num_tickets(context, 0)
                // TLS 1.2 tickets are stateless, so the cache mode does not stop them. SSL_OP_NO_TICKET is
                // SSL_OP_BIT(14), a function-like macro Swift cannot import.
                _ = SSL_CTX_set_options(context, UInt64(1) << 14)
            }
            return context
        } catch {
            SSL_CTX_free(context)
            throw error
        }
    }

    /// Lets clients resume sessions as scripted: a session cache for TLS 1.2 session IDs, tickets sealed with the
    /// script's keys, and a ticket callback that turns every offer down when the script says so.
    private static func configureResumption(_ context: OpaquePointer, _ script: MockServer.TLS.SessionResumption) throws {
        guard (0...10_000).contains(script.ticketsPerConnection) else {
            throw MockServerError(
                code: .tlsSetupFailed, message: "ticketsPerConnection must be 0 to 10 000, not \(script.ticketsPerConnection)")
        }
        guard script.ticketLifetime != 0 else {
            throw MockServerError(code: .tlsSetupFailed, message: "ticketLifetime must be at least 1 s (OpenSSL reads 0 as its default)")
        }
        let sessionContext = Array("MockServer".utf8)
        _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
        _ = SSL_CTX_set_num_tickets(context, script.ticketsPerConnection)
        if let lifetime = script.ticketLifetime { _ = SSL_CTX_set_timeout(context, Int(lifetime)) }
        if let keys = script.ticketKeys {
            var bytes = keys.bytes
            guard SSL_CTX_ctrl(context, SSL_CTRL_SET_TLSEXT_TICKET_KEYS, bytes.count, &bytes) == 1 else {
                throw MockServerError(code: .tlsSetupFailed, message: "cannot set ticket keys: \(openSSLReason())")
            }
        }
        SSL_CTX_sess_set_new_cb(context, sessionIssued)
        guard !script.acceptsOffers else {
            _ = cshims_SSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_SERVER))
            return
        }
        // Sessions are issued but never stored, so a TLS 1.2 session ID is never found; tickets still go out, and every
        // one that comes back is ignored.
        _ = cshims_SSL_CTX_set_session_cache_mode(context, Int(SSL_SESS_CACHE_SERVER | SSL_SESS_CACHE_NO_INTERNAL))
        _ = SSL_CTX_set_session_ticket_cb(context, nil, { _, _, _, _, _, _ in SSL_TICKET_RETURN_IGNORE_RENEW }, nil)
    }

    /// Asks for a client certificate as configured: the CA file's roots verify it, its subjects are the acceptable
    /// CA names sent to the client, and the verification time applies to it.
    private static func configureClientAuthentication(_ context: OpaquePointer, _ configuration: MockServer.TLS) throws {
        guard let caFile = configuration.clientAuthentication.caFile else { return }
        guard SSL_CTX_load_verify_locations(context, caFile, nil) == 1, let names = SSL_load_client_CA_file(caFile) else {
            throw MockServerError(code: .invalidCertificate, message: "cannot load client CA file \(caFile): \(openSSLReason())")
        }
        SSL_CTX_set_client_CA_list(context, names)
        if let time = configuration.clientVerificationTime {
            X509_VERIFY_PARAM_set_time(SSL_CTX_get0_param(context), time_t(time.timeIntervalSince1970.rounded(.down)))
        }
        var mode = SSL_VERIFY_PEER
        switch configuration.clientAuthentication.base {
        case .required: mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT
        // Not asked in the handshake; `Connection.authenticateAfterHandshake` asks once a request head was read.
        case .postHandshake: mode |= SSL_VERIFY_FAIL_IF_NO_PEER_CERT | SSL_VERIFY_POST_HANDSHAKE
        case .none, .optional: break
        }
        SSL_CTX_set_verify(context, mode, clientCertificateVerifyCallback)
        // OpenSSL refuses to resume a session on a verifying server without a session ID context. With
        // `sessionResumption` on (which sets its own), a resumed connection is not asked again: TLS keeps the
        // client's identity with the session, and the journal then records no certificate for that connection.
        let sessionContext = Array("MockServer client authentication".utf8)
        _ = SSL_CTX_set_session_id_context(context, sessionContext, UInt32(sessionContext.count))
    }

    /// Refuses what post-handshake authentication cannot do: TLS 1.2 has no post-handshake CertificateRequest, and
    /// HTTP/2 forbids one (RFC 9113 §9.2.3), so a server that could negotiate either could never ask.
    private static func checkPostHandshakeAuthentication(_ configuration: MockServer.TLS) throws {
        guard configuration.minimumVersion == .tls13, configuration.maximumVersion == .tls13 else {
            throw MockServerError(
                code: .tlsSetupFailed,
                message:
                    "post-handshake client authentication needs TLS 1.3 only (minimumVersion .tls13), not \(configuration.minimumVersion)")
        }
        guard configuration.httpVersions == .http1Only else {
            throw MockServerError(
                code: .tlsSetupFailed,
                message: "post-handshake client authentication is forbidden over HTTP/2 (RFC 9113 §9.2.3): use httpVersions .http1Only")
        }
    }

    /// Loads every PEM certificate of `path`: the first as the leaf, the rest as extra chain certificates, in file order.
    private static func loadChain(_ path: String, into context: OpaquePointer) throws {
        guard let bio = BIO_new_file(path, "r") else {
            throw MockServerError(code: .invalidCertificate, message: "cannot open certificate chain \(path): \(openSSLReason())")
        }
        defer { BIO_free(bio) }
        var count = 0
        // Bounded: a chain longer than this is not a test fixture.
        while count < 64, let certificate = PEM_read_bio_X509(bio, nil, nil, nil) {
            if count == 0 {
                let used = SSL_CTX_use_certificate(context, certificate)
                X509_free(certificate)
                guard used == 1 else {
                    throw MockServerError(code: .invalidCertificate, message: "cannot use leaf certificate of \(path): \(openSSLReason())")
                }
            } else if cshims_SSL_CTX_add_extra_chain_cert(context, certificate) != 1 {
                X509_free(certificate)
                throw MockServerError(
                    code: .invalidCertificate, message: "cannot add chain certificate \(count) of \(path): \(openSSLReason())")
            }
            count += 1
        }
        // Reading past the last certificate leaves "no start line" in the error queue; that is the normal end.
        ERR_clear_error()
        guard count > 0 else {
            throw MockServerError(code: .invalidCertificate, message: "no PEM certificate in \(path)")
        }
    }

    private static func protocolVersion(_ version: MockServer.TLS.Version) -> Int32 {
        switch version {
        case .tls10: TLS1_VERSION
        case .tls11: TLS1_1_VERSION
        case .tls12: TLS1_2_VERSION
        case .tls13: TLS1_3_VERSION
        }
    }
}

/// Notes whether the ClientHello offers a session: a `pre_shared_key` extension (41), a `session_ticket` one (35) that
/// is not empty, or a TLS 1.2 session ID this server issued. Runs on the default context, before SNI picks another.
private func clientHelloSeen(_ ssl: OpaquePointer?, _ alert: UnsafeMutablePointer<Int32>?, _ arg: UnsafeMutableRawPointer?) -> Int32 {
    guard let ssl, let owner = SSL_get_ex_data(ssl, 0) else { return SSL_CLIENT_HELLO_SUCCESS }
    var data: UnsafePointer<UInt8>?
    var length = 0
    let offersPSK = SSL_client_hello_get0_ext(ssl, 41, &data, &length) == 1
    let offersTicket = SSL_client_hello_get0_ext(ssl, 35, &data, &length) == 1 && length > 0
    let connection = Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue()
    length = SSL_client_hello_get0_session_id(ssl, &data)
    let offersSessionID =
        data.map { connection.core.tls?.issuedSessionIDs.contains(Array(UnsafeBufferPointer(start: $0, count: length))) } == true
    connection.sessionOffered = offersPSK || offersTicket || offersSessionID
    return SSL_CLIENT_HELLO_SUCCESS
}

/// Notes the ID of every TLS 1.2 session the server issues (a TLS 1.3 session is offered by ticket only); the session
/// stays OpenSSL's (0: no reference taken).
private func sessionIssued(_ ssl: OpaquePointer?, _ session: OpaquePointer?) -> Int32 {
    guard let ssl, let session, SSL_SESSION_get_protocol_version(session) < TLS1_3_VERSION, let owner = SSL_get_ex_data(ssl, 0)
    else { return 0 }
    var length: UInt32 = 0
    guard let id = SSL_SESSION_get_id(session, &length), length > 0 else { return 0 }
    let connection = Unmanaged<Connection>.fromOpaque(owner).takeUnretainedValue()
    connection.core.tls?.issuedSessionIDs.insert(Array(UnsafeBufferPointer(start: id, count: Int(length))))
    return 0
}

/// The reason of the most recent OpenSSL error on this thread (`"tlsv1 alert unknown ca"`), or a fallback.
func openSSLReason(fallback: String = "no OpenSSL error") -> String {
    let code = ERR_peek_last_error()
    guard code != 0 else { return fallback }
    if let reason = ERR_reason_error_string(code) { return String(cString: reason) }
    var buffer = [UInt8](repeating: 0, count: 256)
    buffer.withUnsafeMutableBufferPointer { pointer in
        pointer.withMemoryRebound(to: CChar.self) { ERR_error_string_n(code, $0.baseAddress, $0.count) }
    }
    return String(decoding: buffer.prefix { $0 != 0 }, as: UTF8.self)
}
