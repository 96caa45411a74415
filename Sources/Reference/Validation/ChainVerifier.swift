internal import COpenSSL
internal import COpenSSLShims
import Foundation
import NetworkCore
import Pinning

/// Standard validation of a served certificate chain outside any handshake, with the code the stack's handshake runs:
/// OpenSSL's path from the leaf to the trusted roots at the verification time, the validation profile's rules, then
/// the host name. It says why a server would be refused, and by which rule and certificate, without the server;
/// `Scripts/verify-chain` is it as a command.
///
/// ```swift
/// let verifier = try ChainVerifier(trustRoots: try .only(pemFiles: ["root.pem"]))
/// switch verifier.verify(try ServerCertificate.certificates(pemFile: "served.pem"), host: "api.example.com") {
/// case .success(let chain): print("verified:", chain.map(\.subject))
/// case .failure(let failure): print("refused:", failure)
/// }
/// ```
///
/// The handshake runs the same implementation (`ChainCheck`), and this verifier sets up its verification context as
/// a client handshake does (the TLS server purpose, the handshake's security level); the fixture scenarios get the
/// manifest's verdict both ways.
public struct ChainVerifier: Sendable {

    /// Trust roots OpenSSL could not load (a PEM text with no certificate, or no system store).
    public struct UnusableRoots: Error, Sendable, CustomStringConvertible {
        /// What went wrong.
        public let description: String
    }

    private let roots: TrustStore
    private let check: ServerCertificateProfileCheck
    private let revocationLists: HeldRevocationLists

    /// Creates a verifier; the roots are loaded now.
    ///
    /// - Parameters:
    ///   - trustRoots: The roots a path must end at.
    ///   - validationProfile: The rules beyond RFC 5280's path validation, as the stack's `Configuration.validationProfile`.
    ///   - maximumChainDepth: The most certificates above the leaf, when the profile applies the rule.
    ///   - revocation: The revocation lists to check and what a stapled OCSP response must be, as the stack's
    ///     `Configuration.revocation` (default off).
    /// - Throws: ``UnusableRoots``.
    public init(
        trustRoots: TrustRoots, validationProfile: ValidationProfile = .strict, maximumChainDepth: Int? = nil,
        revocation: RevocationPolicy = .off
    ) throws(UnusableRoots) {
        roots = TrustStore(roots: trustRoots)
        if case .failure(let failure) = roots.store { throw UnusableRoots(description: failure.message) }
        check = ServerCertificateProfileCheck(profile: validationProfile, maximumChainDepth: maximumChainDepth)
        revocationLists = HeldRevocationLists(revocation)
    }

    /// Validates a chain as a server would serve it for a host.
    ///
    /// - Parameters:
    ///   - served: The certificates as served, leaf first (`ServerCertificate.certificates(pemFile:)` reads a file).
    ///   - host: The host name or IP address asked for.
    ///   - time: The time certificates, revocation lists and the OCSP response are checked against.
    ///   - stapledOCSPResponse: The DER OCSP response the server would staple, if any; judged only when the revocation
    ///     policy's stapling is on.
    /// - Returns: The verified chain, leaf first and trust anchor last, or why standard validation refused it. A served
    ///   chain of more than 100 KiB, which no handshake of the stack accepts, is refused unread.
    public func verify(
        _ served: [ServerCertificate], host: String, at time: Date = Date(), stapledOCSPResponse: [UInt8]? = nil
    ) -> Result<[ServerCertificate], ChainValidationFailure> {
        guard case .success(let trustStore) = roots.store else { return .failure(Self.unusable("no trust roots")) }
        let size = served.reduce(0) { $0 + $1.der.count }
        guard size <= Self.maximumServedSize else {
            return .failure(Self.unusable("the served chain is \(size) bytes, more than a handshake carries (\(Self.maximumServedSize))"))
        }
        guard let certificates = OwnedCertificates.parsing(der: served.map(\.der)) else {
            return .failure(Self.unusable(served.isEmpty ? "no certificate was served" : "a served certificate is not DER"))
        }
        guard let untrusted = cshims_sk_X509_new_null() else { return .failure(Self.unusable("out of memory")) }
        defer { OPENSSL_sk_free(untrusted) }  // the certificates belong to `certificates`
        for certificate in certificates.all.dropFirst() { _ = cshims_sk_X509_push(untrusted, certificate) }
        guard let store = X509_STORE_CTX_new() else { return .failure(Self.unusable("out of memory")) }
        defer { X509_STORE_CTX_free(store) }
        guard X509_STORE_CTX_init(store, trustStore, certificates.leaf, untrusted) == 1,
            X509_STORE_CTX_set_default(store, "ssl_server") == 1
        else { return .failure(Self.unusable("OpenSSL could not set up the verification")) }
        // A handshake verifies at the TLS security level, whose key-size floor refuses a P-192 CA key, say.
        X509_VERIFY_PARAM_set_auth_level(X509_STORE_CTX_get0_param(store), Self.handshakeSecurityLevel)
        let outcome = ChainCheck(
            profileCheck: check, revocationLists: revocationLists, verificationTime: time, privateAnchors: roots.privateAnchors
        )
        .run(store, host: HostName.normalized(host))
        if let failure = outcome.failure { return .failure(failure) }
        let stapleCheck = StapledResponseCheck(stapling: revocationLists.policy.stapling, verificationTime: time)
        if let failure = stapleCheck.check(stapledOCSPResponse, chain: X509_STORE_CTX_get0_chain(store)) { return .failure(failure) }
        var summaries = OpenSSLCertificate.Summaries()
        guard let chain = summaries.of(X509_STORE_CTX_get0_chain(store)) else {
            return .failure(Self.unusable("a certificate of the verified chain cannot be encoded"))
        }
        return .success(chain)
    }

    /// The most certificate bytes a handshake of the stack accepts (OpenSSL's default `max_cert_list`, 100 KiB):
    /// a longer chain could not reach the handshake's check, and parsing one costs time in proportion to its size.
    static let maximumServedSize = 100 * 1024

    /// The security level a client handshake gets from the system's OpenSSL configuration (2 on Debian).
    private static let handshakeSecurityLevel: Int32 = {
        guard let context = SSL_CTX_new(TLS_client_method()) else { return 2 }
        defer { SSL_CTX_free(context) }
        return SSL_CTX_get_security_level(context)
    }()

    private static func unusable(_ reason: String) -> ChainValidationFailure {
        ChainValidationFailure(kind: .other, code: Int(X509_V_ERR_UNSPECIFIED), reason: reason, depth: 0)
    }
}
