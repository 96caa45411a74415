internal import COpenSSL

extension MockServer {
    /// The OpenSSL the server's TLS runs on (`OpenSSL_version(OPENSSL_VERSION)`, such as "OpenSSL 3.0.19 27 Jan
    /// 2026"): what a report names as its harness, beside the libraries of the stack it judged.
    public static var openSSLVersion: String { String(cString: OpenSSL_version(OPENSSL_VERSION)) }
}
