import Foundation
import NIOSSL
import CertificateRules
import NetworkCore
@_spi(FixedExpiryValidationTime) @_spi(DisableValidityCheck) import X509

/// Standard validation with swift-certificates' `Verifier`: a path from the served leaf to one of the trusted roots,
/// valid at the verification time, for the host. A failure is sorted into the kinds the reference stack reports.
struct ChainValidator: Sendable {
    let roots: [Certificate]
    /// The roots as the verifier looks them up, indexed once rather than per handshake.
    private let store: CertificateStore
    /// Each root's summary and BoringSSL form, made once: a verified chain ends in one of them.
    let anchors: [Anchor]
    /// Served certificates parsed in earlier handshakes.
    let parsedCertificates = ParsedCertificateCache()
    /// Paths accepted in earlier handshakes.
    let verifiedPaths = VerifiedPathCache()
    /// Whether chains to these roots are judged as chains to public roots.
    let rootsArePublic: Bool
    /// The validation profile's own rules, applied to each verified path.
    let profile: ProfileRules
    /// The same without `x509-strict`, whose checks OpenSSL makes during path validation, after its own: for a path
    /// RFC 5280's policy refused, the profile's other rules still outrank the refusal (as they judge what OpenSSL lets
    /// through and swift-certificates does not), and OpenSSL's own checks do not.
    private let profileAfterPathValidation: ProfileRules
    /// The revocation lists a verified path is checked against; `nil` when the policy checks nothing.
    let revocation: RevocationListCheck?

    /// A trusted root as a handshake reports it.
    struct Anchor: Sendable {
        /// The certificate the verifier ends a path at: the root, or its stand-in (``TrustAnchorStandIn``).
        let certificate: Certificate
        /// The root as the user trusted it.
        let root: Certificate
        /// The root's facts, read once.
        let facts: CertificateFacts
        let summary: ServerCertificate
        let boringSSL: NIOSSLCertificate
    }

    init(
        roots: [Certificate], rootsArePublic: Bool = false, profile: ValidationProfile = .strict, maximumChainDepth: Int? = nil,
        revocation: RevocationPolicy = .off
    ) {
        self.roots = roots
        self.revocation = RevocationListCheck(revocation)
        self.rootsArePublic = rootsArePublic
        self.profile = ProfileRules(profile: profile, maximumChainDepth: maximumChainDepth, judgesX509Strict: true)
        profileAfterPathValidation = ProfileRules(profile: profile, maximumChainDepth: maximumChainDepth)
        let standIns = roots.map { TrustAnchorStandIn.of($0) }
        store = CertificateStore(standIns)
        anchors = zip(roots, standIns).compactMap { root, standIn in
            guard let summary = try? ParsedCertificate.summary(of: root),
                let boringSSL = try? NIOSSLCertificate(bytes: Array(summary.der), format: .der)
            else { return nil }
            return Anchor(
                certificate: standIn, root: root, facts: CertificateFacts(swiftCertificates: root, depth: 0), summary: summary,
                boringSSL: boringSSL)
        }
    }

    /// What standard validation established.
    struct Outcome: Sendable {
        /// The path to the anchor, anchor included; kept when only the host name failed, empty otherwise.
        let verified: [Certificate]
        let result: Result<Void, ChainValidationFailure>
    }

    func validate(served parsed: [ParsedCertificate], host: String, at time: Date) async -> Outcome {
        let served = parsed.map(\.certificate)
        guard let leaf = served.first else {
            return Outcome(verified: [], result: .failure(Self.failure(.other, code: 1, "the server sent no certificate", depth: 0)))
        }
        if let path = verifiedPaths.path(served: served, host: host, at: time) { return revocationChecked(path, at: time) }
        let intermediates = CertificateStore(served.dropFirst())
        let isIP = IPAddressLiteral.bytes(of: host) != nil
        var full = Verifier(rootCertificates: store) {
            RFC5280Policy(fixedExpiryValidationTime: time)
            ServerIdentityPolicy(serverHostname: isIP ? nil : host, serverIP: isIP ? host : nil)
            HandledExtensionsPolicy.extendedKeyUsage
        }
        if case .validCertificate(let chain) = await full.validate(leaf: leaf, intermediates: intermediates) {
            let path = Array(chain)
            if let refusal = Self.leafChecks(leaf, isIP: isIP) ?? profileRefusal(path, served: parsed, host: host) {
                // A profile refusal is no verified chain; a host-name failure keeps it (TRUST-4).
                return Outcome(verified: refusal.kind == .hostnameMismatch ? path : [], result: .failure(refusal))
            }
            verifiedPaths.keep(path, served: served, host: host)
            return revocationChecked(path, at: time)
        }
        // Which check failed: build the path again with neither dates nor the host name, then look at each.
        var pathOnly = Verifier(rootCertificates: store) {
            RFC5280Policy.withValidityCheckDisabled()
            HandledExtensionsPolicy.extendedKeyUsage
        }
        switch await pathOnly.validate(leaf: leaf, intermediates: intermediates) {
        case .validCertificate(let chain):
            let path = Array(chain)
            // OpenSSL checks revocation before the dates: an expired leaf with an expired list is refused for the list.
            if let refusal = revocation?.refusal(of: asTrusted(path), at: time) { return Outcome(verified: [], result: .failure(refusal)) }
            for (depth, certificate) in path.enumerated() {
                if certificate.notValidAfter < time {
                    return Outcome(
                        verified: [], result: .failure(Self.failure(.expired, code: 10, "certificate has expired", depth: depth)))
                }
                if certificate.notValidBefore > time {
                    return Outcome(
                        verified: [], result: .failure(Self.failure(.notYetValid, code: 9, "certificate is not yet valid", depth: depth)))
                }
            }
            if let purpose = Self.purposeFailure(leaf) { return Outcome(verified: [], result: .failure(purpose)) }
            // As in the reference stack, a profile refusal outranks the host name, checked last.
            if let refusal = profileRefusal(path, served: parsed, host: host) { return Outcome(verified: [], result: .failure(refusal)) }
            return Outcome(verified: path, result: .failure(Self.mismatch(isIP: isIP)))
        case .couldNotValidate(let failures):
            // RFC 5280's policy refused every path: a path on signatures alone shows whether the profile refuses it
            // first, as the reference stack's profile judges what OpenSSL's own checks let through.
            var signaturesOnly = Verifier(rootCertificates: store) { HandledExtensionsPolicy.pathOnly }
            if case .validCertificate(let chain) = await signaturesOnly.validate(leaf: leaf, intermediates: intermediates),
                let refusal = profileRefusal(Array(chain), served: parsed, host: host, by: profileAfterPathValidation)
            {
                return Outcome(verified: [], result: .failure(refusal))
            }
            if let first = failures.first {
                return Outcome(verified: [], result: .failure(Self.policyFailure(first)))
            }
            return Outcome(verified: [], result: .failure(Self.noPath(served: served, roots: roots)))
        }
    }

    /// A path that verified, once checked against the held revocation lists: a revocation failure leaves no verified
    /// chain. Checked on every handshake, a remembered path too: whether a list is current depends on the time.
    private func revocationChecked(_ path: [Certificate], at time: Date) -> Outcome {
        if let refusal = revocation?.refusal(of: asTrusted(path), at: time) { return Outcome(verified: [], result: .failure(refusal)) }
        return Outcome(verified: path, result: .success(()))
    }

    /// The path as the user trusted it: the root itself where the verifier was handed its stand-in, whose
    /// basicConstraints a revocation list's scope must not read.
    private func asTrusted(_ path: [Certificate]) -> [Certificate] {
        guard let last = path.last, let anchor = anchors.first(where: { $0.certificate == last }), anchor.root != last else { return path }
        return path.dropLast() + [anchor.root]
    }

    /// The profile's refusal of a served certificate swift-certificates could not parse, by its serial number and key.
    func unparsedRefusal(of der: [UInt8], depth: Int) -> ChainValidationFailure? {
        CertificateFacts.unparsed(der: der, depth: depth).flatMap { profile.refusal(ofUnparsed: $0, anchorIsPublic: rootsArePublic) }
    }

    /// The profile's refusal of a verified path (leaf first, anchor last) for a host, or `nil`.
    private func profileRefusal(
        _ path: [Certificate], served: [ParsedCertificate], host: String, by profile: ProfileRules? = nil
    ) -> ChainValidationFailure? {
        let profile = profile ?? self.profile
        guard profile.judgesChains else { return nil }
        // Read once: a served certificate's when it was parsed (and cached), an anchor's when the stack was made.
        let facts = path.enumerated().map { depth, certificate in
            var facts =
                served.first { $0.certificate == certificate }?.facts ?? anchors.first { $0.certificate == certificate }?.facts
                ?? CertificateFacts(swiftCertificates: certificate, depth: depth)
            facts.depth = depth
            return facts
        }
        // The rules read the host as the reference stack normalizes it: lowercase, no trailing dot, no IPv6 brackets.
        var normalized = host.lowercased()
        if normalized.hasSuffix(".") { normalized.removeLast() }
        if normalized.hasPrefix("["), normalized.hasSuffix("]") { normalized = String(normalized.dropFirst().dropLast()) }
        guard let chain = ChainFacts(certificates: facts, host: normalized, anchorIsPublic: rootsArePublic) else {
            return Self.failure(.other, code: 50, "no complete verified chain to apply the validation profile to", depth: 0)
        }
        return profile.refusal(of: chain)
    }

    /// What swift-certificates' policies leave to the caller: the leaf must be for server authentication, and name
    /// the host in a subject alternative name (its policy falls back to the common name, which never counts).
    private static func leafChecks(_ leaf: Certificate, isIP: Bool) -> ChainValidationFailure? {
        if let purpose = purposeFailure(leaf) { return purpose }
        if (try? leaf.extensions.subjectAlternativeNames) == nil { return mismatch(isIP: isIP) }
        return nil
    }

    private static func purposeFailure(_ leaf: Certificate) -> ChainValidationFailure? {
        guard let usages = try? leaf.extensions.extendedKeyUsage else { return nil }
        // As OpenSSL's purpose check: anyExtendedKeyUsage alone does not make a TLS server certificate.
        if usages.contains(.serverAuth) { return nil }
        return failure(.invalidPurpose, code: 26, "unsupported certificate purpose", depth: 0)
    }

    private static func mismatch(isIP: Bool) -> ChainValidationFailure {
        isIP
            ? failure(.hostnameMismatch, code: 64, "IP address mismatch", depth: 0)
            : failure(.hostnameMismatch, code: 62, "hostname mismatch", depth: 0)
    }

    /// No path to a trusted root: the served chain says whether it ended at an untrusted root or fell short of one.
    private static func noPath(served: [Certificate], roots: [Certificate]) -> ChainValidationFailure {
        let leaf = served[0]
        let issuers = (served.dropFirst() + roots).filter { $0.subject == leaf.issuer }
        if leaf.subject != leaf.issuer, !issuers.isEmpty,
            !issuers.contains(where: { $0.publicKey.isValidSignature(leaf.signature, for: leaf) })
        {
            return failure(.badSignature, code: 7, "certificate signature failure", depth: 0)
        }
        if served.count == 1, served[0].subject == served[0].issuer {
            return failure(.selfSigned, code: 18, "self-signed certificate", depth: 0)
        }
        if let depth = served.firstIndex(where: { $0.subject == $0.issuer }) {
            return failure(.untrustedRoot, code: 19, "self-signed certificate in certificate chain", depth: depth)
        }
        return failure(.unableToGetIssuer, code: 20, "unable to get local issuer certificate", depth: served.count - 1)
    }

    /// A path that broke one of RFC 5280's rules; swift-certificates says which only in words.
    private static func policyFailure(_ failure: CertificateValidationResult.PolicyFailure) -> ChainValidationFailure {
        let reason = "\(failure.policyFailureReason)"
        let lowered = reason.lowercased()
        let kind: ChainValidationFailure.Kind
        if lowered.contains("path length") && !lowered.contains("basic constraints") {
            kind = .pathLengthExceeded
        } else if lowered.contains("name constraint") {
            kind = .nameConstraintViolation
        } else if lowered.contains("basic constraints") || lowered.contains("as a ca") {
            kind = .invalidCA
        } else if lowered.contains("key usage") {
            kind = .invalidPurpose
        } else {
            kind = .other
        }
        return Self.failure(kind, code: 0, reason, depth: 0)
    }

    private static func failure(_ kind: ChainValidationFailure.Kind, code: Int, _ reason: String, depth: Int) -> ChainValidationFailure {
        ChainValidationFailure(kind: kind, code: code, reason: reason, depth: depth)
    }
}
