internal import CCurl
internal import CShims
internal import COpenSSL

extension Network.URLSessionNetworkStack {

    /// The versions of the C libraries the stack runs on, as they report themselves at run time
    /// (`OpenSSL_version(OPENSSL_VERSION)` and `curl_version()`), for reports and bug tickets.
    public static var transportVersions: (openSSL: String, libcurl: String) {
        (String(cString: OpenSSL_version(OPENSSL_VERSION)), String(cString: curl_version()))
    }
}
