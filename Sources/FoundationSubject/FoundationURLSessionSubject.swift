import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The conformance subject for ``FoundationNetworkStack``.
///
/// Foundation on Linux has no server-trust challenge and no way to set trusted roots: it trusts the system
/// bundle only. TLS cases therefore run only when every root a case needs is in that bundle, which
/// `Scripts/conformance --subject foundation` arranges in a private mount namespace; otherwise they are SKIP.
public struct FoundationURLSessionSubject: ConformanceSubject {

    /// The system CA bundle URLSession's libcurl reads.
    public var bundlePath: String

    /// Creates the subject.
    public init(bundlePath: String = "/etc/ssl/certs/ca-certificates.crt") {
        self.bundlePath = bundlePath
    }

    public var name: String { "foundation" }

    public var summary: String {
        "FoundationNetworkStack on FoundationNetworking URLSession (swift-corelibs-foundation), system CA bundle \(bundlePath)"
    }

    public var unsupportedFeatures: [SubjectFeature: String] {
        [
            .serverTrustChallenge: "FoundationNetworking on Linux never delivers a server-trust challenge to any delegate",
            .verificationTime: "URLSession checks certificates against the current time only",
            .exclusiveTrustRoots: "URLSession always trusts the whole system bundle",
            .resolveOverrides: "URLSession has no host-resolution override",
            .strictValidationProfile: "URLSession on libcurl applies OpenSSL's standard verification only",
            .maximumResponseSize: "URLSession has no limit on the size of a response body",
            .clientCertificates:
                "FoundationNetworking on Linux never delivers a client-certificate challenge (NSURLAuthenticationMethodClientCertificate) to any delegate",
            .resourceTimeout: "this subject keeps URLSessionConfiguration's default timeoutIntervalForResource (seven days)",
            .revocation: "URLSession on Linux has no revocation setting and asks for no stapled OCSP response",
            .pathBuilding:
                "URLSession on libcurl verifies the one path OpenSSL builds, to a self-signed root (no partial chains, no other paths)",
            .maximumChainDepth: "URLSession has no setting for the deepest chain it accepts",
            .redirectLimit: "URLSession has no redirect limit setting (its delegate could count redirects; this subject has none)",
            .sessionResumption: "URLSession on Linux is judged on no resumed connection: it delivers no server-trust challenge at all",
        ]
    }

    public func makeStack(for environment: StackEnvironment) throws -> FoundationNetworkStack {
        // Trusted roots cannot be configured: the case can run only if the system bundle already has them.
        if !environment.trustedRootFiles.isEmpty {
            let bundle = (try? String(contentsOfFile: bundlePath, encoding: .utf8)) ?? ""
            for file in environment.trustedRootFiles {
                guard let body = try? Self.base64Body(ofPEMFile: file), bundle.contains(body) else {
                    throw SubjectUnsupported(
                        "custom-trust-roots: \(URL(fileURLWithPath: file).lastPathComponent) is not in \(bundlePath); run Scripts/conformance --subject foundation, which bind-mounts a bundle with the fixture roots in a private mount namespace"
                    )
                }
            }
        }
        let configuration = URLSessionConfiguration.ephemeral
        return FoundationNetworkStack(configuration: configuration, retryQueue: environment.retryQueue)
    }

    public func tearDown(_ stack: FoundationNetworkStack) {
        stack.finishFetchesAndInvalidateSession()
    }

    /// The first base64 line of a PEM certificate's body: enough to find it in a bundle.
    static func base64Body(ofPEMFile path: String) throws -> String {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.hasPrefix("-----BEGIN CERTIFICATE") }), start + 2 < lines.count else { return text }
        return lines[start + 1] + "\n" + lines[start + 2]
    }
}
