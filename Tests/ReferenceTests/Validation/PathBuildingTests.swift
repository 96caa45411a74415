import Foundation
import Reference
import TestTraits
import Testing

/// Path building beyond OpenSSL's (`AlternativePaths`): the other issuers the served certificates offer are tried,
/// within bounds, when the path OpenSSL takes fails. The `cross-signed-*` fixtures serve the leaf's intermediate
/// twice, the first copy leading where OpenSSL gives up.
@Suite("Path building tries the other served issuers", .scaledTimeLimit(minutes: 1), .blocking)
struct PathBuildingTests {
    private static let time = Date(timeIntervalSince1970: 2_500_000_000)

    private static func verify(_ served: [ServerCertificate]) throws -> Result<[ServerCertificate], ChainValidationFailure> {
        let verifier = try ChainVerifier(trustRoots: try .only(pemFiles: [Fixtures.path("roots/root-a.pem")]))
        return verifier.verify(served, host: "localhost", at: Self.time)
    }

    private static func certificate(_ file: String) throws -> ServerCertificate {
        try ServerCertificate.certificates(pemFile: Fixtures.path(file))[0]
    }

    @Test("an intermediate whose first served copy leads to an untrusted root is verified through its second copy")
    func deadEndIsLeftForTheOtherIssuer() throws {
        let chain = try Self.verify(try ServerCertificate.certificates(pemFile: Fixtures.path("cross-signed-dead-end/served.pem"))).get()
        #expect(
            chain.map(\.der)
                == (try ["leaf.pem", "intermediate-1.pem", "root.pem"].map { try Self.certificate("cross-signed-dead-end/\($0)").der }))
    }

    @Test("the other path is found 8 certificates above the leaf, and not 9: the search's depth bound")
    func depthBound() throws {
        let at = try Self.verify(try ServerCertificate.certificates(pemFile: Fixtures.path("cross-signed-at-depth-bound/served.pem")))
        #expect(try at.get().count == 9)
        let past = try Self.verify(try ServerCertificate.certificates(pemFile: Fixtures.path("cross-signed-past-depth-bound/served.pem")))
        #expect(past.failure?.kind == .unableToGetIssuer)
    }

    @Test("an intermediate whose first served copy forbids the leaf's name is verified through the unconstrained copy")
    func forbiddenPathIsLeftForTheOtherIssuer() throws {
        let chain = try Self.verify(try ServerCertificate.certificates(pemFile: Fixtures.path("cross-signed-constrained-first/served.pem")))
            .get()
        #expect(chain[1].der == (try Self.certificate("cross-signed-constrained-first/intermediate-1.pem")).der)
        #expect(chain[1].der != (try Self.certificate("cross-signed-constrained-first/intermediate-nc.pem")).der)
    }

    @Test("with only the forbidden or dead-end copy served, the chain is refused as OpenSSL refuses it")
    func noOtherPathKeepsTheRefusal() throws {
        let leaf = try Self.certificate("cross-signed-dead-end/leaf.pem")
        let deadEnd = try #require(try Self.verify([leaf, try Self.certificate("cross-signed-dead-end/intermediate-c.pem")]).failure)
        #expect(deadEnd.kind == .unableToGetIssuer)
        let constrained = try #require(
            try Self.verify([
                try Self.certificate("cross-signed-constrained-first/leaf.pem"),
                try Self.certificate("cross-signed-constrained-first/intermediate-nc.pem"),
            ]).failure)
        #expect(constrained.kind == .nameConstraintViolation || constrained.kind == .other)
    }

    @Test("the served order does not matter: a root served before the intermediates is a path all the same")
    func rootServedFirst() throws {
        let chain = try Self.verify(try ServerCertificate.certificates(pemFile: Fixtures.path("root-served-first/served.pem"))).get()
        #expect(chain.map(\.subject).last == "CN=Fixture Root A")
        #expect(chain.count == 4)
    }

    @Test("a certificate served many times is one candidate: fifty dead-end copies do not hide the good one")
    func duplicatesAreOneCandidate() throws {
        let leaf = try Self.certificate("cross-signed-dead-end/leaf.pem")
        let deadEnd = try Self.certificate("cross-signed-dead-end/intermediate-c.pem")
        let good = try Self.certificate("cross-signed-dead-end/intermediate-1.pem")
        #expect(try Self.verify([leaf] + Array(repeating: deadEnd, count: 50) + [good]).success?.count == 3)
    }

    @Test("look-alike issuers (the intermediate's name and key identifier, another key) are dropped by their signature, and capped")
    func lookAlikeIssuersAreBounded() throws {
        let leaf = try Self.certificate("cross-signed-dead-end/leaf.pem")
        let deadEnd = try Self.certificate("cross-signed-dead-end/intermediate-c.pem")
        let good = try Self.certificate("cross-signed-dead-end/intermediate-1.pem")
        let lookAlikes = try LookAlikeIssuers(of: "cross-signed-dead-end/intermediate-1.pem", count: 8)
        // Within the cap, the look-alikes fail their signature check and the real issuer is found.
        #expect(try Self.verify([leaf, deadEnd] + lookAlikes.certificates.prefix(6) + [good]).success?.count == 3)
        // Past it, the search gives up as OpenSSL did, however the chain goes on.
        #expect(try Self.verify([leaf, deadEnd] + lookAlikes.certificates + [good]).failure?.kind == .unableToGetIssuer)
    }
}

/// Self-signed certificates with a fixture intermediate's subject and subjectKeyIdentifier on keys of their own: each
/// looks, by names and key identifiers, like the issuer of that intermediate's certificates.
private struct LookAlikeIssuers {
    let certificates: [ServerCertificate]

    init(of intermediate: String, count: Int) throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("look-alike-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let subject = try OpenSSLCommand.run(["x509", "-in", Fixtures.path(intermediate), "-noout", "-subject", "-nameopt", "compat"])
            .replacingOccurrences(of: "subject=", with: "").trimmingCharacters(in: .whitespacesAndNewlines)
        let identifier =
            try OpenSSLCommand.run(["x509", "-in", Fixtures.path(intermediate), "-noout", "-ext", "subjectKeyIdentifier"])
            .split(separator: "\n").last.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        certificates = try (0..<count).map { index in
            let key = folder.appendingPathComponent("\(index).key").path
            let pem = folder.appendingPathComponent("\(index).pem").path
            try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", key])
            try OpenSSLCommand.run([
                "req", "-x509", "-new", "-key", key, "-subj", subject, "-days", "36500", "-addext", "basicConstraints=critical,CA:TRUE",
                "-addext", "keyUsage=critical,keyCertSign", "-addext", "subjectKeyIdentifier=\(identifier)", "-out", pem,
            ])
            return try ServerCertificate.certificates(pemFile: pem)[0]
        }
    }
}
