internal import COpenSSL
internal import COpenSSLShims
import Foundation

/// What OpenSSL's verification may overlook while it builds and checks a path; the one verification callback
/// (``chainVerifyCallback``) reads it from the verification context, since a C callback captures nothing.
struct ChainVerifyLeniency: OptionSet {
    let rawValue: Int

    /// RFC 5280 4.1.2.5 makes the validity period inclusive ("notBefore through notAfter, inclusive"), but
    /// OpenSSL reports a certificate as expired at its notAfter instant: that one instant is accepted.
    static let inclusiveNotAfter = ChainVerifyLeniency(rawValue: 1)
    /// The leaf may have no revocation list (the revocation policy does not require one for it).
    static let leafWithoutList = ChainVerifyLeniency(rawValue: 2)
    /// A certificate above the leaf may have no revocation list.
    static let issuerWithoutList = ChainVerifyLeniency(rawValue: 4)
    /// `X509_V_FLAG_X509_STRICT` judges the trust anchor's own structure too (basicConstraints criticality, key
    /// identifiers, keyUsage, …); RFC 5280 6.1 takes an anchor as a name and a key, so those errors are overlooked
    /// on the anchor alone. An anchor's key with explicit curve parameters still refuses: the key signs the path.
    static let anchorStructure = ChainVerifyLeniency(rawValue: 8)

    /// The verification context's ex-data slot that holds the leniency, as the pointer's bit pattern.
    private static let slot: Int32 = CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_X509_STORE_CTX, 0, nil, nil, nil, nil)
    /// The slot that holds the held revocation lists, unretained: the caller keeps them for the verification.
    private static let listsSlot: Int32 = CRYPTO_get_ex_new_index(CRYPTO_EX_INDEX_X509_STORE_CTX, 0, nil, nil, nil, nil)

    /// Sets the callback and this leniency on a verification context; nothing when there is nothing to overlook.
    /// `lists` must outlive the verification.
    func install(on store: OpaquePointer, lists: HeldRevocationLists) {
        guard !isEmpty else { return }
        X509_STORE_CTX_set_ex_data(store, Self.slot, UnsafeMutableRawPointer(bitPattern: rawValue))
        X509_STORE_CTX_set_ex_data(store, Self.listsSlot, Unmanaged.passUnretained(lists).toOpaque())
        X509_STORE_CTX_set_verify_cb(store, chainVerifyCallback)
    }

    fileprivate static func of(_ store: OpaquePointer) -> ChainVerifyLeniency {
        ChainVerifyLeniency(rawValue: Int(bitPattern: X509_STORE_CTX_get_ex_data(store, slot)))
    }

    fileprivate static func lists(of store: OpaquePointer) -> HeldRevocationLists? {
        X509_STORE_CTX_get_ex_data(store, listsSlot).map { Unmanaged<HeldRevocationLists>.fromOpaque($0).takeUnretainedValue() }
    }
}

/// Accepts the errors a ``ChainVerifyLeniency`` names, and nothing else: any other error, and an expiry at any
/// other time than the notAfter instant, stands.
private let chainVerifyCallback: @convention(c) (Int32, OpaquePointer?) -> Int32 = { ok, store in
    guard ok == 0, let store else { return ok }
    let leniency = ChainVerifyLeniency.of(store)
    let accepted: Bool
    switch X509_STORE_CTX_get_error(store) {
    case X509_V_ERR_CERT_HAS_EXPIRED:
        accepted = leniency.contains(.inclusiveNotAfter) && expiresExactlyNow(store)
    case X509_V_ERR_UNABLE_TO_GET_CRL:
        // OpenSSL also says this of a held list it could not use for the certificate: that is no absence.
        let issuer = X509_STORE_CTX_get_current_cert(store).flatMap { X509_get_issuer_name($0) }
        accepted =
            leniency.contains(X509_STORE_CTX_get_error_depth(store) == 0 ? .leafWithoutList : .issuerWithoutList)
            && ChainVerifyLeniency.lists(of: store)?.holdsList(issuedBy: issuer) == false
    case let code where code == X509_V_ERR_INVALID_CA || ChainValidationFailure.Kind.strictProfile(code: code) != nil:
        accepted =
            leniency.contains(.anchorStructure) && code != X509_V_ERR_EC_KEY_EXPLICIT_PARAMS && isTrustAnchor(store)
    default:
        accepted = false
    }
    guard accepted else { return ok }
    X509_STORE_CTX_set_error(store, X509_V_OK)
    return 1
}

/// Whether the certificate being judged ends the path OpenSSL built and came from the trusted store.
private func isTrustAnchor(_ store: OpaquePointer) -> Bool {
    let depth = Int(X509_STORE_CTX_get_error_depth(store))
    return depth > 0 && depth == Int(cshims_sk_X509_num(X509_STORE_CTX_get0_chain(store))) - 1
        && depth >= Int(X509_STORE_CTX_get_num_untrusted(store))
}

private func expiresExactlyNow(_ store: OpaquePointer) -> Bool {
    guard let certificate = X509_STORE_CTX_get_current_cert(store) else { return false }
    let parameters = X509_STORE_CTX_get0_param(store)
    let usesCheckTime = X509_VERIFY_PARAM_get_flags(parameters) & UInt(X509_V_FLAG_USE_CHECK_TIME) != 0
    let now = usesCheckTime ? X509_VERIFY_PARAM_get_time(parameters) : time(nil)
    return ASN1_TIME_cmp_time_t(X509_get0_notAfter(certificate), now) == 0
}
