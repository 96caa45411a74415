internal import COpenSSL
import NetworkCore

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
        // The TLS security level's key-size floor, applied before any profile: the profile's own rule, earlier.
        case X509_V_ERR_CA_KEY_TOO_SMALL, X509_V_ERR_EE_KEY_TOO_SMALL: return .forbiddenKey
        case X509_V_ERR_CERT_REVOKED: return .revoked
        case X509_V_ERR_UNABLE_TO_GET_CRL: return .revocationUnavailable
        case X509_V_ERR_CRL_HAS_EXPIRED, X509_V_ERR_CRL_NOT_YET_VALID, X509_V_ERR_CRL_SIGNATURE_FAILURE,
            X509_V_ERR_UNABLE_TO_DECRYPT_CRL_SIGNATURE, X509_V_ERR_UNABLE_TO_GET_CRL_ISSUER, X509_V_ERR_KEYUSAGE_NO_CRL_SIGN,
            X509_V_ERR_UNHANDLED_CRITICAL_CRL_EXTENSION, X509_V_ERR_DIFFERENT_CRL_SCOPE, X509_V_ERR_CRL_PATH_VALIDATION_ERROR,
            X509_V_ERR_ERROR_IN_CRL_LAST_UPDATE_FIELD, X509_V_ERR_ERROR_IN_CRL_NEXT_UPDATE_FIELD:
            return .invalidRevocationData
        default: return .other
        }
    }
}
