internal import COpenSSL
import Foundation

/// Standard validation of one served chain for one host, the same code in a handshake (`TLSCallbacks`) and outside
/// one (``ChainVerifier``): OpenSSL's verification with the profile's flags and the held revocation lists at the
/// verification time, then the profile's own rules (on the path OpenSSL built, or else on the first of the other
/// paths ``AlternativePaths`` finds that passes), then the host name. (A stapled OCSP response arrives after
/// this check in a TLS 1.2 handshake: ``StapledResponseCheck`` judges it apart.)
///
/// The host name is checked after the chain, not through the verification parameters: OpenSSL checks a parameter host
/// before signatures and dates and stops at the first error, so a host-name failure would hide whether the rest held.
/// Checked last, `.hostnameMismatch` means "everything else was verified", which is what a handler that waives the
/// host check (TrustManager's `sslValidateHostName = false`) needs; for the same reason a profile refusal outranks it.
struct ChainCheck: Sendable {
    let profileCheck: ServerCertificateProfileCheck
    /// The revocation lists OpenSSL checks the path against, as the revocation policy says.
    let revocationLists: HeldRevocationLists
    /// The time certificates are checked against; `nil` is the verification context's own (the current time).
    let verificationTime: Date?
    /// The roots a user added as private, which pick the profile's rules for a chain that ends at one.
    let privateAnchors: PrivateAnchors

    /// What the check established.
    struct Outcome {
        /// Whether the chain verified to a trust anchor and met the profile, the host name aside: only then is the chain
        /// the verification context built a verified chain.
        let chainVerified: Bool
        /// Why standard validation failed, or `nil` when it passed.
        let failure: ChainValidationFailure?
    }

    /// Runs the check on a verification context set up with the served chain and the trusted roots; on a failure,
    /// the context's error says so too.
    func run(_ store: OpaquePointer, host: String) -> Outcome {
        guard let parameters = X509_STORE_CTX_get0_param(store) else {
            return Outcome(
                chainVerified: false,
                failure: ChainValidationFailure(
                    kind: .other, code: Int(X509_V_ERR_UNSPECIFIED), reason: "no verification parameters", depth: 0))
        }
        if let failure = verifyAnyPath(store, host: host) { return Outcome(chainVerified: false, failure: failure) }
        let flags =
            X509_VERIFY_PARAM_get_hostflags(parameters) | UInt32(X509_CHECK_FLAG_NEVER_CHECK_SUBJECT)
            | UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS)
        guard Self.matches(X509_STORE_CTX_get0_cert(store), host, flags: flags) else {
            let isIP = HostName.isIPAddress(host)
            X509_STORE_CTX_set_error_depth(store, 0)
            X509_STORE_CTX_set_current_cert(store, X509_STORE_CTX_get0_cert(store))
            X509_STORE_CTX_set_error(store, isIP ? X509_V_ERR_IP_ADDRESS_MISMATCH : X509_V_ERR_HOSTNAME_MISMATCH)
            return Outcome(chainVerified: true, failure: ChainValidationFailure(openSSLStore: store))
        }
        return Outcome(chainVerified: true, failure: nil)
    }

    /// The path OpenSSL builds on a context, then the other paths ``AlternativePaths`` finds, until one passes; `nil`
    /// when one did, else the failure that stands.
    ///
    /// A certificate revoked on one path is revoked on every path: only other failures send the search elsewhere, and
    /// a revocation failure on another path ends it. A path to a trust anchor that failed a later check (the profile,
    /// a list) says more than the dead end OpenSSL's own path met, so its failure stands rather than the dead end's:
    /// a handler must not be told "unable to get issuer" of a leaf that a found path shows revoked.
    private func verifyAnyPath(_ store: OpaquePointer, host: String) -> ChainValidationFailure? {
        guard let failure = verify(store, host: host) else { return nil }
        guard !failure.kind.concernsRevocation else { return failure }
        let other = AlternativePaths(failed: store).search { context in
            switch verify(context, host: host) {
            case nil: .passed
            case let failure? where failure.kind.concernsRevocation: .failedEverywhere(failure)
            case let failure?: .failed(failure)
            }
        }
        switch other {
        case .passed?: return nil
        case .failed(let other)?, .failedEverywhere(let other)?: return other
        case nil: return failure
        }
    }

    /// OpenSSL's verification of the path it builds on a context, then the profile's rules over it; `nil` when both pass.
    private func verify(_ context: OpaquePointer, host: String) -> ChainValidationFailure? {
        let parameters = X509_STORE_CTX_get0_param(context)
        if let verificationTime { X509_VERIFY_PARAM_set_time(parameters, time_t(verificationTime.timeIntervalSince1970)) }
        // Any trusted certificate is an anchor (RFC 5280 6.1), not only a self-signed one: an intermediate in the
        // trust roots ends the path there.
        X509_VERIFY_PARAM_set_flags(parameters, UInt(X509_V_FLAG_PARTIAL_CHAIN))
        profileCheck.prepare(context).union(revocationLists.prepare(context)).install(on: context, lists: revocationLists)
        guard X509_verify_cert(context) == 1 else { return ChainValidationFailure(openSSLStore: context) }
        return profileCheck.check(store: context, host: host, privateAnchors: privateAnchors)
    }

    /// Whether a leaf certificate is for a host name or IP address, by the rules OpenSSL's verification applies.
    private static func matches(_ leaf: OpaquePointer?, _ host: String, flags: UInt32) -> Bool {
        guard let leaf else { return false }
        if HostName.isIPAddress(host) { return X509_check_ip_asc(leaf, host, flags) == 1 }
        return X509_check_host(leaf, host, host.utf8.count, flags, nil) == 1  // `CurlEndpoint` removed any trailing dot
    }
}
