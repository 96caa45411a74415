internal import COpenSSL
internal import COpenSSLShims

/// Path building beyond OpenSSL's: when the path OpenSSL built from the served chain fails, the other paths from
/// the leaf to a trust anchor that the served certificates and the trust store allow, each verified in full
/// (OpenSSL's checks and the profile's rules) until one passes.
///
/// OpenSSL follows one issuer per certificate (the trust store's first, then the first served one that is current)
/// and does not backtrack: a served intermediate whose own issuer is not trusted, or one that a name constraint
/// forbids, ends the search although another served certificate for the same issuer name and key would lead to a
/// trusted root. Work is bounded, so that a server cannot make a handshake expensive: at most ``maximumPaths`` paths
/// are verified in full, none deeper than ``maximumDepth``; the search looks for issuers at most ``maximumSteps``
/// times, and checks the signatures of at most ``maximumIssuers`` candidates each time (a candidate is a served or
/// trusted certificate whose names and key identifiers say it issued the certificate: anyone can make those).
struct AlternativePaths {
    static let maximumPaths = 8
    static let maximumDepth = 8
    static let maximumIssuers = 8
    static let maximumSteps = 64

    /// The verification context OpenSSL's own path failed in: its store, leaf, served certificates and parameters.
    let failed: OpaquePointer

    /// What verifying one path said.
    enum Verdict {
        /// The path passed: the search ends, and its chain becomes the verified chain.
        case passed
        /// The path failed; the search goes on.
        case failed(ChainValidationFailure)
        /// The path failed in a way every other path would too (a revoked leaf): the search ends.
        case failedEverywhere(ChainValidationFailure)
    }

    /// Calls `verify` on a fresh verification context for each alternative path, in depth-first order, until it
    /// says `passed` (that context's chain then becomes `failed`'s verified chain, with no error) or
    /// `failedEverywhere`. Returns that verdict, else the first path's failure, or `nil` when no other path was found.
    func search(verify: (OpaquePointer) -> Verdict) -> Verdict? {
        guard let leaf = X509_STORE_CTX_get0_cert(failed) else { return nil }
        var owned: [OpaquePointer] = []  // certificates from the trust store, referenced until the search ends
        defer { owned.forEach { X509_free($0) } }
        // The served certificates once each: a certificate served many times is one candidate.
        var served: [OpaquePointer] = []
        for certificate in certificates(of: X509_STORE_CTX_get0_untrusted(failed))
        where !served.contains(where: { X509_cmp($0, certificate) == 0 }) {
            served.append(certificate)
        }
        let tried = certificates(of: X509_STORE_CTX_get0_chain(failed))
        var paths = Self.maximumPaths
        var steps = Self.maximumSteps
        var attempted: [[OpaquePointer]] = []
        var signatures: [Pair: Bool] = [:]
        var ending: Verdict?  // the verdict that ended the search
        var firstFailure: Verdict?

        /// The certificates that issued `certificate` (names, key identifiers, keyUsage, then the signature itself),
        /// none of them already on the path: the trust store's first, at most `maximumIssuers`.
        func issuers(of certificate: OpaquePointer, excluding path: [OpaquePointer]) -> [(certificate: OpaquePointer, trusted: Bool)] {
            var found: [(OpaquePointer, Bool)] = []
            if let stack = X509_STORE_CTX_get1_certs(failed, X509_get_issuer_name(certificate)) {
                for candidate in certificates(of: stack) {
                    X509_up_ref(candidate)
                    owned.append(candidate)
                    found.append((candidate, true))
                }
                cshims_sk_X509_pop_free(stack)
            }
            ERR_clear_error()  // a name with no certificate in the store leaves an error behind
            for candidate in served where candidate != certificate { found.append((candidate, false)) }
            let named = found.filter { candidate, _ in
                candidate != leaf && !path.contains(candidate) && X509_check_issued(candidate, certificate) == X509_V_OK
            }
            return named.prefix(Self.maximumIssuers).filter { candidate, _ in
                let pair = Pair(issuer: candidate, subject: certificate)
                if let known = signatures[pair] { return known }
                let signed = X509_verify(certificate, X509_get0_pubkey(candidate)) == 1
                ERR_clear_error()
                signatures[pair] = signed
                return signed
            }
        }

        // Depth-first over issuers; `path` holds the certificates above the leaf.
        func extend(_ path: [OpaquePointer], from certificate: OpaquePointer) -> Bool {
            guard paths > 0, steps > 0, path.count < Self.maximumDepth else { return false }
            steps -= 1
            for (issuer, trusted) in issuers(of: certificate, excluding: path) {
                if trusted {
                    // `tried` is the leaf and what OpenSSL put above it: the same path would fail the same way. OpenSSL
                    // chooses the anchor itself, so one attempt per set of intermediates is enough.
                    if [leaf] + path + [issuer] == tried || attempted.contains(path) { continue }
                    attempted.append(path)
                    paths -= 1
                    switch attempt(intermediates: path, verify: verify) {
                    case .failed(let failure): firstFailure = firstFailure ?? .failed(failure)
                    case let verdict:
                        ending = verdict
                        return true
                    }
                    guard paths > 0 else { return false }
                } else if extend(path + [issuer], from: issuer) {
                    return true
                }
                guard steps > 0 else { return false }
            }
            return false
        }
        _ = extend([], from: leaf)
        return ending ?? firstFailure
    }

    /// An issuer and a certificate it may have signed, by identity.
    private struct Pair: Hashable {
        let issuer: OpaquePointer
        let subject: OpaquePointer
    }

    /// Verifies the leaf with only these intermediates served, on a context set up as the failed one was.
    private func attempt(intermediates: [OpaquePointer], verify: (OpaquePointer) -> Verdict) -> Verdict {
        let outOfMemory = Verdict.failed(
            ChainValidationFailure(kind: .other, code: Int(X509_V_ERR_OUT_OF_MEM), reason: "out of memory", depth: 0))
        guard let context = X509_STORE_CTX_new(), let untrusted = cshims_sk_X509_new_null() else { return outOfMemory }
        defer {
            OPENSSL_sk_free(untrusted)  // the certificates belong to the failed context and the trust store
            X509_STORE_CTX_free(context)
        }
        for certificate in intermediates { _ = cshims_sk_X509_push(untrusted, certificate) }
        guard X509_STORE_CTX_init(context, X509_STORE_CTX_get0_store(failed), X509_STORE_CTX_get0_cert(failed), untrusted) == 1,
            X509_STORE_CTX_set_default(context, "ssl_server") == 1,
            X509_VERIFY_PARAM_set1(X509_STORE_CTX_get0_param(context), X509_STORE_CTX_get0_param(failed)) == 1
        else {
            ERR_clear_error()
            return outOfMemory
        }
        let verdict = verify(context)
        guard case .passed = verdict, let chain = X509_chain_up_ref(X509_STORE_CTX_get0_chain(context)) else {
            ERR_clear_error()
            return verdict
        }
        X509_STORE_CTX_set0_verified_chain(failed, chain)
        X509_STORE_CTX_set_error(failed, X509_V_OK)
        X509_STORE_CTX_set_error_depth(failed, 0)
        X509_STORE_CTX_set_current_cert(failed, nil)
        return .passed
    }

    private func certificates(of stack: OpaquePointer?) -> [OpaquePointer] {
        (0..<cshims_sk_X509_num(stack)).compactMap { cshims_sk_X509_value(stack, $0) }
    }
}
