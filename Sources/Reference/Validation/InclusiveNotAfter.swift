internal import COpenSSL
import Foundation

/// RFC 5280 4.1.2.5 makes the validity period inclusive ("notBefore through notAfter, inclusive"), but
/// OpenSSL reports a certificate as expired at its notAfter instant. This verification callback accepts
/// that one instant, and nothing else: any other error, and an expiry at any other time, stands.
let inclusiveNotAfterCallback: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, store in
    guard ok == 0, let store, X509_STORE_CTX_get_error(store) == X509_V_ERR_CERT_HAS_EXPIRED,
        let certificate = X509_STORE_CTX_get_current_cert(store)
    else { return ok }
    let parameters = X509_STORE_CTX_get0_param(store)
    let usesCheckTime = X509_VERIFY_PARAM_get_flags(parameters) & UInt(X509_V_FLAG_USE_CHECK_TIME) != 0
    let now = usesCheckTime ? X509_VERIFY_PARAM_get_time(parameters) : time(nil)
    guard ASN1_TIME_cmp_time_t(X509_get0_notAfter(certificate), now) == 0 else { return ok }
    X509_STORE_CTX_set_error(store, X509_V_OK)
    return 1
}
