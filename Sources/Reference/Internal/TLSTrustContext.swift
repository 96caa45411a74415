import CCurl
import COpenSSL
import CShims
import Foundation
import Logging

/// Everything a stack's TLS verification needs, fixed for the stack's life, and the libcurl and OpenSSL
/// callbacks that apply it.
///
/// Verification happens in two places so that a refusal holds on every connection (spec decision 10):
/// - in the handshake of each new connection, through OpenSSL's certificate verification callback, over
///   the chain OpenSSL built (libcurl's TLS session cache is off, so no handshake skips it);
/// - before each request on a reused connection, through libcurl's pre-request callback, over the chain
///   verified when that connection was made (libcurl reuses connections without another handshake).
/// libcurl's own host-name check is off because the verification callback checks the name itself, through
/// OpenSSL's verification parameters: one place decides, and a handler may accept a mismatch on purpose.
final class TLSTrustContext: Sendable {

    let roots: TrustRoots
    let handler: (any AuthenticationChallengeHandler)?
    let verificationTime: Date?
    let logger: Logger

    init(roots: TrustRoots, handler: (any AuthenticationChallengeHandler)?, verificationTime: Date?, logger: Logger) {
        self.roots = roots
        self.handler = handler
        self.verificationTime = verificationTime
        self.logger = logger
    }

    /// Sets the TLS options of one transfer; `transfer` is its unretained `CurlTransfer`.
    ///
    /// - Returns: `false` if libcurl refused any of them (for instance a libcurl built on another TLS
    ///   library, which has no `SSL_CTX_FUNCTION`): the transfer must then not start, since it would be
    ///   verified by nobody.
    func configure(easy: UnsafeMutableRawPointer, transfer: UnsafeMutableRawPointer) -> Bool {
        var codes = [
            cshims_easy_setopt_long(easy, CURLOPT_SSL_VERIFYPEER, 1),
            // The verification callback checks the host name itself (see the type's comment).
            cshims_easy_setopt_long(easy, CURLOPT_SSL_VERIFYHOST, 0),
            cshims_easy_setopt_long(easy, CURLOPT_SSL_SESSIONID_CACHE, 0),
            cshims_easy_setopt_ssl_ctx_function(easy, sslContextCallback),
            cshims_easy_setopt_ptr(easy, CURLOPT_SSL_CTX_DATA, transfer),
            cshims_easy_setopt_prereq_function(easy, preRequestCallback),
            cshims_easy_setopt_ptr(easy, CURLOPT_PREREQDATA, transfer),
        ]
        if !roots.additionalPEM.isEmpty {
            roots.additionalPEM.utf8CString.withUnsafeBufferPointer { bytes in
                var blob = curl_blob(data: UnsafeMutableRawPointer(mutating: bytes.baseAddress), len: bytes.count - 1, flags: UInt32(CURL_BLOB_COPY))
                codes.append(cshims_easy_setopt_ptr(easy, CURLOPT_CAINFO_BLOB, &blob))
            }
        }
        if !roots.includesSystemRoots {
            // Debian's libcurl also trusts CAPATH=/etc/ssl/certs, whatever CAINFO says.
            codes.append(cshims_easy_setopt_ptr(easy, CURLOPT_CAPATH, nil))
            codes.append(cshims_easy_setopt_ptr(easy, CURLOPT_CAINFO, nil))
        }
        return codes.allSatisfy { $0 == CURLE_OK }
    }

    /// Decides about a server, from a chain and standard validation's outcome; records a refusal on the transfer.
    func decide(
        host: String, port: Int, served: [ServerCertificate], verified: [ServerCertificate],
        standard: Result<Void, ChainValidationFailure>, reused: Bool, transfer: CurlTransfer?
    ) -> Bool {
        let time = verificationTime ?? Date()
        guard let handler else {
            return accept(standard, host: host, transfer: transfer)
        }
        let challenge = ServerTrustChallenge(
            host: host, port: port, servedChain: served, verifiedChain: verified,
            standardValidation: standard, verificationTime: time, isReusedConnection: reused)
        switch handler.handle(challenge) {
        case .useCredential:
            logger.debug("TLS server trusted by handler", metadata: ["host": "\(host)", "reused": "\(reused)"])
            return true
        case .performDefaultHandling:
            return accept(standard, host: host, transfer: transfer)
        case .cancelAuthenticationChallenge(let failure):
            logger.warning("TLS server refused by handler", metadata: ["host": "\(host)", "reason": "\(failure)"])
            transfer?.serverTrustFailure = failure
            return false
        }
    }

    private func accept(_ standard: Result<Void, ChainValidationFailure>, host: String, transfer: CurlTransfer?) -> Bool {
        switch standard {
        case .success:
            return true
        case .failure(let failure):
            logger.warning("TLS chain validation failed", metadata: ["host": "\(host)", "reason": "\(failure)"])
            transfer?.chainValidationFailure = failure
            return false
        }
    }
}

/// What one connection's verification needs, and what its handshake found; lives exactly as long as the
/// connection's `SSL_CTX`, and is touched only on the transport thread.
private final class ConnectionTrust {
    let host: String
    let port: Int
    let context: TLSTrustContext
    weak var transfer: CurlTransfer?
    /// The handshake's verdict, kept for the re-check before each later request: OpenSSL's own record of
    /// it cannot be trusted then (the verify result is overwritten when a handler accepts, and the chain it
    /// keeps may be a partial, unverified one).
    var handshake: (standard: Result<Void, ChainValidationFailure>, verified: [ServerCertificate], served: [ServerCertificate])?

    init(host: String, port: Int, context: TLSTrustContext, transfer: CurlTransfer) {
        self.host = host
        self.port = port
        self.context = context
        self.transfer = transfer
    }
}

/// The `SSL_CTX` ex-data slot that owns a `ConnectionTrust`, released when libcurl frees the context.
private let connectionTrustIndex: Int32 = CRYPTO_get_ex_new_index(
    CRYPTO_EX_INDEX_SSL_CTX, 0, nil, nil, nil,
    { _, pointer, _, _, _, _ in
        guard let pointer else { return }
        Unmanaged<ConnectionTrust>.fromOpaque(pointer).release()
    })

/// Where a transfer connects, as libcurl sees it: the host in the form that goes on the wire (punycode for
/// internationalised names, lowercased, one trailing dot removed, IPv6 without brackets) and the port.
private func endpoint(of easy: UnsafeMutableRawPointer) -> (host: String, port: Int)? {
    var effective: UnsafePointer<CChar>?
    cshims_easy_getinfo_ptr(easy, CURLINFO_EFFECTIVE_URL, &effective)
    guard let effective, let url = curl_url() else { return nil }
    defer { curl_url_cleanup(url) }
    guard curl_url_set(url, CURLUPART_URL, effective, 0) == CURLUE_OK else { return nil }
    func part(_ what: CURLUPart, _ flags: UInt32) -> String? {
        var value: UnsafeMutablePointer<CChar>?
        guard curl_url_get(url, what, &value, flags) == CURLUE_OK, let value else { return nil }
        defer { curl_free(value) }
        return String(cString: value)
    }
    guard var host = part(CURLUPART_HOST, UInt32(CURLU_PUNYCODE))?.lowercased(),
        let port = part(CURLUPART_PORT, UInt32(CURLU_DEFAULT_PORT)).flatMap(Int.init)
    else { return nil }
    if host.hasPrefix("["), host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
    if host.hasSuffix("."), host.count > 1 { host.removeLast() }
    return (host, port)
}


private let sslContextCallback: curl_ssl_ctx_callback = { easy, sslContext, userdata in
    guard let easy, let sslContext, let userdata, let (host, port) = endpoint(of: easy) else {
        return CURLE_SSL_CONNECT_ERROR
    }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    let connection = ConnectionTrust(host: host, port: port, context: transfer.trust, transfer: transfer)
    let context = OpaquePointer(sslContext)
    let retained = Unmanaged.passRetained(connection).toOpaque()
    guard SSL_CTX_set_ex_data(context, connectionTrustIndex, retained) == 1 else {
        Unmanaged<ConnectionTrust>.fromOpaque(retained).release()
        return CURLE_SSL_CONNECT_ERROR
    }
    SSL_CTX_set_cert_verify_callback(context, certificateVerifyCallback, retained)
    // A renegotiation would verify again after the transfer that made the connection is gone. SSL_OP_NO_RENEGOTIATION
    // is SSL_OP_BIT(30), a function-like macro Swift cannot import.
    _ = SSL_CTX_set_options(context, UInt64(1) << 30)
    return CURLE_OK
}

/// Replaces OpenSSL's chain verification: runs it (with the host name and the verification time), then
/// lets the handler decide. Returning 0 fails the handshake before any request byte is sent.
private let certificateVerifyCallback: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?) -> Int32 = { store, argument in
    guard let store, let argument else { return 0 }
    let connection = Unmanaged<ConnectionTrust>.fromOpaque(argument).takeUnretainedValue()
    let context = connection.context
    let parameters = X509_STORE_CTX_get0_param(store)
    if let time = context.verificationTime {
        X509_VERIFY_PARAM_set_time(parameters, time_t(time.timeIntervalSince1970))
    }
    // The host name is checked after the chain, not through the verification parameters: OpenSSL checks a
    // parameter host before signatures and dates and stops at the first error, so a host-name failure would
    // hide whether the rest held. Checked last, `.hostnameMismatch` means "everything else was verified",
    // which is what a handler that waives the host check (TrustManager's `sslValidateHostName = false`) needs.
    var verified = X509_verify_cert(store) == 1
    var chainVerified = verified
    let hostFlags = X509_VERIFY_PARAM_get_hostflags(parameters) | UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT) | UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)
    if verified, !matchesHost(X509_STORE_CTX_get0_cert(store), connection.host, flags: hostFlags) {
        X509_STORE_CTX_set_error_depth(store, 0)
        X509_STORE_CTX_set_current_cert(store, X509_STORE_CTX_get0_cert(store))
        X509_STORE_CTX_set_error(store, HostName.isIPAddress(connection.host) ? X509_V_ERR_IP_ADDRESS_MISMATCH : X509_V_ERR_HOSTNAME_MISMATCH)
        verified = false
    }
    // A chain OpenSSL could not verify is not a verified chain, whatever path it got as far as building; only
    // a host-name failure (checked after the whole chain verified) keeps it.
    guard let served = OpenSSLCertificate.summaries(of: X509_STORE_CTX_get0_untrusted(store)),
        let built = OpenSSLCertificate.summaries(of: X509_STORE_CTX_get0_chain(store))
    else {
        // A certificate that cannot be encoded cannot be judged: refuse rather than judge the others.
        connection.transfer?.chainValidationFailure = ChainValidationFailure(
            kind: .other, code: Int(X509_V_ERR_APPLICATION_VERIFICATION), reason: "a certificate of the chain cannot be encoded", depth: 0)
        X509_STORE_CTX_set_error(store, X509_V_ERR_APPLICATION_VERIFICATION)
        return 0
    }
    let standard: Result<Void, ChainValidationFailure> = verified ? .success(()) : .failure(ChainValidationFailure(store: store))
    let verifiedChain = chainVerified ? built : []
    connection.handshake = (standard, verifiedChain, served)
    let accepted = context.decide(
        host: connection.host, port: connection.port, served: served, verified: verifiedChain,
        standard: standard, reused: false, transfer: connection.transfer)
    // libcurl reads the verify result after the handshake, so it must agree with the decision.
    X509_STORE_CTX_set_error(store, accepted ? X509_V_OK : (verified ? X509_V_ERR_APPLICATION_VERIFICATION : X509_STORE_CTX_get_error(store)))
    return accepted ? 1 : 0
}

/// Whether a leaf certificate is for a host name or IP address, by the rules OpenSSL's verification applies.
private func matchesHost(_ leaf: OpaquePointer?, _ host: String, flags: UInt32) -> Bool {
    guard let leaf else { return false }
    if HostName.isIPAddress(host) { return X509_check_ip_asc(leaf, host, flags) == 1 }
    return X509_check_host(leaf, host, host.utf8.count, flags, nil) == 1  // `endpoint(of:)` removed any trailing dot
}

/// Checks a connection before each request that did not just verify it in its own handshake (a reused
/// connection, or one a redirect reuses), with that connection's handshake verdict; a refusal aborts with no
/// request byte sent.
private let preRequestCallback: curl_prereq_callback = { userdata, _, _, _, _ in
    guard let userdata else { return CURL_PREREQFUNC_ABORT }
    let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
    guard let easy = transfer.easy else { return CURL_PREREQFUNC_ABORT }
    var info: UnsafeMutablePointer<curl_tlssessioninfo>?
    cshims_easy_getinfo_ptr(easy, CURLINFO_TLS_SSL_PTR, &info)
    guard let info, info.pointee.backend == CURLSSLBACKEND_OPENSSL, let ssl = info.pointee.internals else {
        // No OpenSSL connection: fine for plain HTTP, never for HTTPS.
        return transfer.isHTTPS ? CURL_PREREQFUNC_ABORT : CURL_PREREQFUNC_OK
    }
    let connection = OpaquePointer(ssl)
    guard let pointer = SSL_CTX_get_ex_data(SSL_get_SSL_CTX(connection), connectionTrustIndex) else { return CURL_PREREQFUNC_ABORT }
    let trust = Unmanaged<ConnectionTrust>.fromOpaque(pointer).takeUnretainedValue()
    guard let handshake = trust.handshake else { return CURL_PREREQFUNC_ABORT }  // never verified: never used
    if trust.transfer === transfer { return CURL_PREREQFUNC_OK }  // this transfer's own handshake just decided
    guard transfer.trust.handler != nil else { return CURL_PREREQFUNC_OK }  // standard validation passed; nothing can change it
    guard let (host, port) = endpoint(of: easy), trust.host == host, trust.port == port else { return CURL_PREREQFUNC_ABORT }
    let accepted = transfer.trust.decide(
        host: host, port: port, served: handshake.served, verified: handshake.verified,
        standard: handshake.standard, reused: true, transfer: transfer)
    return accepted ? CURL_PREREQFUNC_OK : CURL_PREREQFUNC_ABORT
}

extension ChainValidationFailure {

    /// The failure OpenSSL recorded in a verification context.
    init(store: OpaquePointer) {
        let code = X509_STORE_CTX_get_error(store)
        self.init(
            kind: Self.kind(of: code),
            code: Int(code),
            reason: String(cString: X509_verify_cert_error_string(Int(code))),
            depth: Int(X509_STORE_CTX_get_error_depth(store)))
    }

    private static func kind(of code: Int32) -> Kind {
        switch code {
        case X509_V_ERR_CERT_HAS_EXPIRED: return .expired
        case X509_V_ERR_CERT_NOT_YET_VALID: return .notYetValid
        case X509_V_ERR_HOSTNAME_MISMATCH, X509_V_ERR_IP_ADDRESS_MISMATCH: return .hostnameMismatch
        case X509_V_ERR_SELF_SIGNED_CERT_IN_CHAIN: return .untrustedRoot
        case X509_V_ERR_DEPTH_ZERO_SELF_SIGNED_CERT: return .selfSigned
        case X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT_LOCALLY, X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT,
            X509_V_ERR_UNABLE_TO_VERIFY_LEAF_SIGNATURE:
            return .unableToGetIssuer
        case X509_V_ERR_INVALID_CA: return .invalidCA
        case X509_V_ERR_PATH_LENGTH_EXCEEDED: return .pathLengthExceeded
        case X509_V_ERR_CERT_SIGNATURE_FAILURE, X509_V_ERR_UNABLE_TO_DECRYPT_CERT_SIGNATURE: return .badSignature
        case X509_V_ERR_INVALID_PURPOSE: return .invalidPurpose
        default: return .other
        }
    }
}
