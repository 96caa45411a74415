internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// Verifies a chain outside any handshake the way the handshake does — OpenSSL's chain verification for a
/// TLS server with the profile's flags, then the host name, then the profile's own rules — so that the
/// profile can be tested over fixture chains with a real `X509_STORE` and `X509_verify_cert`.
enum ProfileChainVerifier {

    /// A PEM input that holds no certificate, or could not be read.
    struct Unreadable: Error { let path: String }

    /// The verdict on a served chain (leaf first) for a host, trusting the certificates of `trustPEMFiles`.
    static func verify(
        servedPEMFile: String, trustPEMFiles: [String], host: String, profile: ValidationProfile,
        maximumChainDepth: Int? = nil, time: Date
    ) throws -> Result<Void, ChainValidationFailure> {
        let served = try certificates(servedPEMFile)
        defer { served.forEach { X509_free($0) } }
        guard let trustStore = X509_STORE_new() else { throw Unreadable(path: "X509_STORE") }
        defer { X509_STORE_free(trustStore) }
        for path in trustPEMFiles {
            let roots = try certificates(path)
            defer { roots.forEach { X509_free($0) } }
            roots.forEach { X509_STORE_add_cert(trustStore, $0) }  // the store takes its own reference
        }
        guard let untrusted = cshims_sk_X509_new_null() else { throw Unreadable(path: "stack") }
        defer { OPENSSL_sk_free(untrusted) }  // the certificates belong to `served`
        served.dropFirst().forEach { _ = cshims_sk_X509_push(untrusted, $0) }
        guard let store = X509_STORE_CTX_new() else { throw Unreadable(path: "X509_STORE_CTX") }
        defer { X509_STORE_CTX_free(store) }
        guard X509_STORE_CTX_init(store, trustStore, served[0], untrusted) == 1,
            X509_STORE_CTX_set_default(store, "ssl_server") == 1
        else { throw Unreadable(path: servedPEMFile) }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(store), time_t(time.timeIntervalSince1970))
        // A handshake verifies at the TLS security level, whose key-size floor refuses a P-192 CA key, say.
        X509_VERIFY_PARAM_set_auth_level(X509_STORE_CTX_get0_param(store), handshakeSecurityLevel)
        let check = ServerCertificateProfileCheck(profile: profile, maximumChainDepth: maximumChainDepth)
        check.prepare(store)
        guard X509_verify_cert(store) == 1 else { return .failure(ChainValidationFailure(openSSLStore: store)) }
        let flags = UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT) | UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)
        let matches =
            HostName.isIPAddress(host)
            ? X509_check_ip_asc(served[0], host, flags) == 1
            : X509_check_host(served[0], host, host.utf8.count, flags, nil) == 1
        // As in the handshake, a profile refusal outranks a host-name mismatch.
        if let refusal = check.check(store: store, host: host) { return .failure(refusal) }
        guard matches else {
            return .failure(
                ChainValidationFailure(
                    kind: .hostnameMismatch, code: Int(X509_V_ERR_HOSTNAME_MISMATCH), reason: "hostname mismatch", depth: 0))
        }
        return .success(())
    }

    /// The security level a client handshake gets from the system's OpenSSL configuration (2 on Debian).
    private static let handshakeSecurityLevel: Int32 = {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return 2 }
        defer { SSL_CTX_free(context) }
        return SSL_CTX_get_security_level(context)
    }()

    /// The certificates of a PEM file, in file order; each is the caller's to free.
    static func certificates(_ path: String) throws -> [OpaquePointer] {
        guard let pem = FileManager.default.contents(atPath: path) else { throw Unreadable(path: path) }
        return try pem.withUnsafeBytes { bytes -> [OpaquePointer] in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { throw Unreadable(path: path) }
            defer { BIO_free(bio) }
            var result: [OpaquePointer] = []
            while let certificate = PEM_read_bio_X509(bio, nil, nil, nil) { result.append(certificate) }
            ERR_clear_error()  // the read past the last certificate leaves an error behind
            if result.isEmpty { throw Unreadable(path: path) }
            return result
        }
    }
}
