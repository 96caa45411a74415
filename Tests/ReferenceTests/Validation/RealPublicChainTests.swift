import Foundation
import NetworkCore
import Reference
import TestTraits
import Testing

/// Chains of the real public PKI, as servers served them, under the default profile: each one is judged at a time it
/// was valid, against the issuing CA it names as the trust anchor (its own root has since left the system store), that
/// anchor named public so the Baseline Requirements' rules apply too. The certificates come from Python's
/// `cryptography-vectors` package (Scripts/bootstrap installs it), read where it is installed, never copied here.
@Suite("Real public chains under the default profile", .scaledTimeLimit(minutes: 1), .blocking)
struct RealPublicChainTests {

    /// One captured chain: the served certificates, the CA that issued the leaf, a host and a time it was valid for.
    struct Capture: CustomTestStringConvertible, Sendable {
        let served: [String]
        let issuer: String
        let host: String
        let validAt: String
        var testDescription: String { "\(host) at \(validAt)" }

        var time: Date { ISO8601DateFormatter().date(from: validAt + "T12:00:00Z")! }
    }

    static let captures = [
        // www.cryptography.io as served in 2014-2018: RSA leaf from RapidSSL SHA256 CA - G3 (GeoTrust), the intermediate sent.
        Capture(
            served: ["cryptography.io.chain.pem"], issuer: "rapidssl_sha256_ca_g3.pem", host: "www.cryptography.io", validAt: "2016-06-01"),
        Capture(served: ["cryptography.io.pem"], issuer: "rapidssl_sha256_ca_g3.pem", host: "cryptography.io", validAt: "2018-01-15"),
        // cryptography.io in 2018, from Let's Encrypt Authority X3, with embedded SCTs.
        Capture(served: ["cryptography-scts.pem"], issuer: "letsencryptx3.pem", host: "cryptography.io", validAt: "2018-11-01"),
        // scotthelme.co.uk in 2017: eight names and the TLS feature extension (must-staple).
        Capture(served: ["tls-feature-ocsp-staple.pem"], issuer: "letsencryptx3.pem", host: "www.scotthelme.co.uk", validAt: "2017-10-15"),
    ]

    @Test("a real public chain verifies under the default profile at a time it was valid", arguments: captures)
    func realChainVerifies(capture: Capture) throws {
        let verifier = try ChainVerifier(trustRoots: .only(pemFiles: [try Self.vector(capture.issuer)], public: true))
        let result = verifier.verify(try Self.served(capture), host: capture.host, at: capture.time)
        let chain = try result.get()
        #expect(chain.count == 2)
    }

    @Test("the same chain is refused for a host it does not name, and after it expired", arguments: captures)
    func realChainIsStillJudged(capture: Capture) throws {
        let verifier = try ChainVerifier(trustRoots: .only(pemFiles: [try Self.vector(capture.issuer)], public: true))
        let served = try Self.served(capture)
        let otherHost = verifier.verify(served, host: "example.org", at: capture.time)
        #expect(throws: ChainValidationFailure.self) { try otherHost.get() }
        #expect(Self.kind(of: otherHost) == .hostnameMismatch)
        #expect(Self.kind(of: verifier.verify(served, host: capture.host, at: Date(timeIntervalSince1970: 2_500_000_000))) == .expired)
    }

    private static func kind(of result: Result<[ServerCertificate], ChainValidationFailure>) -> ChainValidationFailure.Kind? {
        if case .failure(let failure) = result { return failure.kind }
        return nil
    }

    private static func served(_ capture: Capture) throws -> [ServerCertificate] {
        try capture.served.flatMap { try ServerCertificate.certificates(pemFile: try vector($0)) }
    }

    /// A file of the installed `cryptography-vectors` package's x509 folder.
    private static func vector(_ name: String) throws -> String {
        let path = try directory.get() + "/x509/" + name
        guard FileManager.default.fileExists(atPath: path) else { throw MissingVectors(description: "no \(path)") }
        return path
    }

    struct MissingVectors: Error, CustomStringConvertible {
        let description: String
    }

    /// Where Python finds the package: a missing package fails these tests, it never skips them.
    private static let directory: Result<String, MissingVectors> = {
        do {
            let python = try ChildProcess.run(
                "/usr/bin/env", ["python3", "-c", "import cryptography_vectors, os; print(os.path.dirname(cryptography_vectors.__file__))"])
            let path = python.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
            guard python.status == 0, !path.isEmpty else { throw MissingVectors(description: "") }
            return .success(path)
        } catch {
            return .failure(
                MissingVectors(description: "Python's cryptography-vectors package is not installed (Scripts/bootstrap installs it)"))
        }
    }()
}
