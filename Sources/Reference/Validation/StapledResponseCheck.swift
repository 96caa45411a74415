internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore
import Pinning

/// Judges the OCSP response (RFC 6960) a server stapled to its handshake, over the chain standard validation
/// verified, at the verification time; the same code in a handshake (the status callback) and in ``ChainVerifier``.
///
/// OpenSSL's own `OCSP_basic_verify` and `OCSP_check_validity` judge signers and freshness by the wall clock,
/// so this check uses them only for the signature, and decides who may sign and until when itself.
struct StapledResponseCheck: Sendable {

    let stapling: RevocationPolicy.Stapling
    /// The time the response is checked against; `nil` is the current time.
    let verificationTime: Date?

    /// How far a response's thisUpdate may be ahead of the verification time: a responder's clock may run fast.
    static let clockSkew: TimeInterval = 300
    /// How old a response without a nextUpdate may be.
    static let maximumAgeWithoutNextUpdate: TimeInterval = 7 * 24 * 3600

    /// Whether the check asks servers for a staple at all.
    var asksForStaple: Bool { stapling != .off }

    /// The refusal of a stapled response (or of its absence) for a verified chain (leaf first), or `nil`.
    func check(_ response: [UInt8]?, chain: OpaquePointer?) -> ChainValidationFailure? {
        guard stapling != .off else { return nil }
        let count = Int(cshims_sk_X509_num(chain))
        guard count > 0, let leaf = cshims_sk_X509_value(chain, 0),
            let issuer = cshims_sk_X509_value(chain, Int32(min(1, count - 1)))
        else { return failure(.revocationUnavailable, "no verified chain to check a stapled OCSP response against") }
        guard let response, !response.isEmpty else {
            if stapling == .required { return failure(.revocationUnavailable, "the server stapled no OCSP response") }
            if Self.demandsStaple(leaf) {
                return failure(
                    .revocationUnavailable,
                    "the server's certificate demands a stapled OCSP response (TLS feature status_request) and none was stapled")
            }
            return nil
        }
        let parsed = response.withUnsafeBytes {
            DEREncoding.decodeWhole($0, with: { d2i_OCSP_RESPONSE(nil, &$0, $1) }, free: OCSP_RESPONSE_free)
        }
        guard let parsed else { return failure(.invalidRevocationData, "the stapled OCSP response is not exactly one DER value") }
        defer { OCSP_RESPONSE_free(parsed) }
        let status = OCSP_response_status(parsed)
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            return failure(
                .invalidRevocationData,
                "the stapled OCSP response is not successful (\(String(cString: OCSP_response_status_str(Int(status)))))")
        }
        guard let basic = OCSP_response_get1_basic(parsed) else {
            return failure(.invalidRevocationData, "the stapled OCSP response is not a basic response")
        }
        defer { OCSP_BASICRESP_free(basic) }
        if let refusal = signerRefusal(basic, issuer: issuer) { return refusal }
        return statusRefusal(basic, leaf: leaf, issuer: issuer)
    }

    /// RFC 6960 4.2.2.2: the response is signed by the certificate's issuer, or by a responder the issuer
    /// certified for OCSP signing that is valid at the verification time.
    private func signerRefusal(_ basic: OpaquePointer, issuer: OpaquePointer) -> ChainValidationFailure? {
        guard let candidates = cshims_sk_X509_new_null() else { return failure(.invalidRevocationData, "out of memory") }
        defer { OPENSSL_sk_free(candidates) }  // the certificates belong to the chain and the response
        _ = cshims_sk_X509_push(candidates, issuer)
        var found: OpaquePointer?
        guard OCSP_resp_get0_signer(basic, &found, candidates) == 1, let signer = found else {
            return failure(.invalidRevocationData, "the stapled OCSP response names a signer it does not include")
        }
        if X509_cmp(signer, issuer) != 0 {
            let time = time_t((verificationTime ?? Date()).timeIntervalSince1970)
            let delegated =
                X509_check_issued(issuer, signer) == X509_V_OK && X509_verify(signer, X509_get0_pubkey(issuer)) == 1
                && X509_get_extension_flags(signer) & UInt32(EXFLAG_XKUSAGE) != 0
                && X509_get_extended_key_usage(signer) & UInt32(XKU_OCSP_SIGN) != 0
                && [-1, 0].contains(ASN1_TIME_cmp_time_t(X509_get0_notBefore(signer), time))
                && [0, 1].contains(ASN1_TIME_cmp_time_t(X509_get0_notAfter(signer), time))
            guard delegated else {
                return failure(
                    .invalidRevocationData,
                    "the stapled OCSP response is signed by \(Self.subject(of: signer)), neither the certificate's issuer nor a responder it certified"
                )
            }
        }
        // The signer is already judged: OpenSSL only checks the signature (OCSP_TRUSTOTHER skips its chain check).
        guard let signers = cshims_sk_X509_new_null() else { return failure(.invalidRevocationData, "out of memory") }
        defer { OPENSSL_sk_free(signers) }
        guard let empty = X509_STORE_new() else { return failure(.invalidRevocationData, "out of memory") }
        defer { X509_STORE_free(empty) }
        _ = cshims_sk_X509_push(signers, signer)
        let verified = OCSP_basic_verify(basic, signers, empty, UInt(OCSP_NOINTERN | OCSP_TRUSTOTHER)) == 1
        ERR_clear_error()
        return verified ? nil : failure(.invalidRevocationData, "the stapled OCSP response's signature does not verify")
    }

    /// The leaf's status in the response, at the verification time.
    private func statusRefusal(_ basic: OpaquePointer, leaf: OpaquePointer, issuer: OpaquePointer) -> ChainValidationFailure? {
        guard let single = Self.response(for: leaf, issuer: issuer, in: basic) else {
            return failure(.invalidRevocationData, "the stapled OCSP response does not cover the server's certificate")
        }
        var reason: Int32 = 0
        var revoked: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        let status = OCSP_single_get0_status(single, &reason, &revoked, &thisUpdate, &nextUpdate)
        let now = verificationTime ?? Date()
        // ASN1_TIME_cmp_time_t says -1, 0 or 1, and -2 for a time it cannot read: only the expected answers pass.
        guard let thisUpdate, [-1, 0].contains(ASN1_TIME_cmp_time_t(thisUpdate, time_t(now.timeIntervalSince1970 + Self.clockSkew)))
        else {
            return failure(.invalidRevocationData, "the stapled OCSP response is not yet valid (thisUpdate is after the verification time)")
        }
        if let nextUpdate {
            guard [0, 1].contains(ASN1_TIME_cmp_time_t(nextUpdate, time_t(now.timeIntervalSince1970))) else {
                return failure(
                    .invalidRevocationData, "the stapled OCSP response is stale (its nextUpdate is before the verification time)")
            }
        } else if ASN1_TIME_cmp_time_t(thisUpdate, time_t(now.timeIntervalSince1970 - Self.maximumAgeWithoutNextUpdate)) != 1 {
            return failure(.invalidRevocationData, "the stapled OCSP response has no nextUpdate and is more than 7 days old")
        }
        switch status {
        case V_OCSP_CERTSTATUS_GOOD: return nil
        case V_OCSP_CERTSTATUS_REVOKED: return failure(.revoked, "the stapled OCSP response says the server's certificate is revoked")
        default: return failure(.revocationUnavailable, "the stapled OCSP response does not know the server's certificate")
        }
    }

    /// The single response about a certificate, matched with whatever hash the responder used for its ID; of
    /// several, one that says revoked.
    private static func response(for leaf: OpaquePointer, issuer: OpaquePointer, in basic: OpaquePointer) -> OpaquePointer? {
        var found: OpaquePointer?
        for index in 0..<OCSP_resp_count(basic) {
            guard let single = OCSP_resp_get0(basic, index), let id = OCSP_SINGLERESP_get0_id(single) else { continue }
            var algorithm: OpaquePointer?
            guard OCSP_id_get0_info(nil, &algorithm, nil, nil, id) == 1,
                let digest = EVP_get_digestbyname(OBJ_nid2sn(OBJ_obj2nid(algorithm))),
                let mine = OCSP_cert_to_id(digest, leaf, issuer)
            else { continue }
            defer { OCSP_CERTID_free(mine) }
            guard OCSP_id_cmp(mine, id) == 0 else { continue }
            if OCSP_single_get0_status(single, nil, nil, nil, nil) == V_OCSP_CERTSTATUS_REVOKED { return single }
            found = found ?? single
        }
        return found
    }

    /// Whether a certificate carries the TLS feature extension with status_request (RFC 7633, "must-staple").
    static func demandsStaple(_ certificate: OpaquePointer) -> Bool {
        let index = X509_get_ext_by_NID(certificate, NID_tlsfeature, -1)
        guard index >= 0, let ext = X509_get_ext(certificate, index) else { return false }
        // The value is a SEQUENCE OF INTEGER; status_request is 5. Anything unreadable demands it, failing closed.
        let value = ASN1Text.bytes(X509_EXTENSION_get_data(ext))
        guard value.count >= 2, value[0] == 0x30, Int(value[1]) == value.count - 2 else { return true }
        var offset = 2
        while offset + 2 <= value.count {
            guard value[offset] == 0x02 else { return true }
            let length = Int(value[offset + 1])
            guard offset + 2 + length <= value.count else { return true }
            if length == 1, value[offset + 2] == 5 { return true }
            offset += 2 + length
        }
        return false
    }

    private static func subject(of certificate: OpaquePointer) -> String {
        guard let name = X509_NAME_oneline(X509_get_subject_name(certificate), nil, 0) else { return "an unnamed certificate" }
        defer { CRYPTO_free(name, #fileID, #line) }
        return String(cString: name)
    }

    private func failure(_ kind: ChainValidationFailure.Kind, _ reason: String) -> ChainValidationFailure {
        ChainValidationFailure(kind: kind, code: Int(X509_V_ERR_OCSP_VERIFY_FAILED), reason: reason, depth: 0)
    }
}
