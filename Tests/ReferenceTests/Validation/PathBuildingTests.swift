import Foundation
import Reference
import Testing

/// Path building beyond OpenSSL's (`AlternativePaths`): the other issuers the served certificates offer are tried,
/// within bounds, when the path OpenSSL takes fails. The `cross-signed-*` fixtures serve the leaf's intermediate
/// twice, the first copy leading where OpenSSL gives up.
@Suite("Path building tries the other served issuers", .timeLimit(.minutes(1)))
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

    @Test("the issuers tried for one certificate are capped: eight dead-end copies before the good one hide it")
    func candidateIssuersAreBounded() throws {
        let leaf = try Self.certificate("cross-signed-dead-end/leaf.pem")
        let deadEnd = try Self.certificate("cross-signed-dead-end/intermediate-c.pem")
        let good = try Self.certificate("cross-signed-dead-end/intermediate-1.pem")
        #expect(try Self.verify([leaf] + Array(repeating: deadEnd, count: 7) + [good]).success != nil)
        #expect(try Self.verify([leaf] + Array(repeating: deadEnd, count: 8) + [good]).failure?.kind == .unableToGetIssuer)
    }
}
