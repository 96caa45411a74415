import Foundation
import Reference
import TestTraits
import Testing

/// `ChainVerifier`: the handshake's standard validation, outside any handshake.
@Suite("The chain verifier, without a server", .scaledTimeLimit(minutes: 1))
struct ChainVerifierTests {
    private static let time = Date(timeIntervalSince1970: 2_500_000_000)  // inside every good fixture's validity

    private static func served(_ scenario: String) throws -> [ServerCertificate] {
        try ServerCertificate.certificates(pemFile: Fixtures.path("\(scenario)/served.pem"))
    }

    private static func verifier(_ roots: String...) throws -> ChainVerifier {
        try ChainVerifier(trustRoots: try .only(pemFiles: roots.map(Fixtures.path)))
    }

    @Test("a good chain is verified, and the answer is the path from the leaf to the trusted root")
    func verifiedChainEndsAtTheAnchor() throws {
        let chain = try Self.verifier("roots/root-a.pem").verify(try Self.served("valid-ec256"), host: "localhost", at: Self.time).get()
        #expect(chain.map(\.subject) == ["CN=localhost", "CN=Fixture valid-ec256 Intermediate 1", "CN=Fixture Root A"])
        #expect(chain.prefix(2).map(\.der) == (try Self.served("valid-ec256")).map(\.der))
    }

    @Test("a trusted intermediate ends the path: the verified chain stops there, without the root above it")
    func trustedIntermediateIsAnAnchor() throws {
        let verifier = try Self.verifier("valid-ec256/intermediate-1.pem")
        let chain = try verifier.verify(try Self.served("valid-ec256"), host: "localhost", at: Self.time).get()
        #expect(chain.map(\.subject) == ["CN=localhost", "CN=Fixture valid-ec256 Intermediate 1"])
    }

    @Test("a served certificate with a byte after its DER value is refused unread, as a TLS client refuses it")
    func bytesAfterACertificateAreRefused() throws {
        let served = try Self.served("valid-ec256")
        var padded = served
        padded[0] = ServerCertificate(
            der: served[0].der + Data([0]), spkiSHA256: served[0].spkiSHA256, subject: served[0].subject, issuer: served[0].issuer)
        let verifier = try Self.verifier("roots/root-a.pem")
        #expect(verifier.verify(served, host: "localhost", at: Self.time).success != nil)
        let failure = try #require(verifier.verify(padded, host: "localhost", at: Self.time).failure)
        #expect(failure.reason.contains("not DER"), "\(failure)")
    }

    @Test("a host the leaf does not name is hostnameMismatch, the host spelled as a user might")
    func wrongHostIsAMismatch() throws {
        let verifier = try Self.verifier("roots/root-a.pem")
        let failure = try #require(verifier.verify(try Self.served("valid-ec256"), host: "api.example.test", at: Self.time).failure)
        #expect(failure.kind == .hostnameMismatch)
        #expect(failure.depth == 0)
        #expect(verifier.verify(try Self.served("valid-ec256"), host: "LOCALHOST.", at: Self.time).success != nil)
    }

    @Test("a chain to a root that is not trusted is refused at the certificate whose issuer is missing")
    func untrustedRootRefused() throws {
        let failure = try #require(
            try Self.verifier("roots/root-b.pem").verify(try Self.served("valid-ec256"), host: "localhost", at: Self.time).failure)
        #expect(failure.kind == .unableToGetIssuer)
        #expect(failure.depth == 1)
    }

    @Test("the verification time decides expiry: the same chain is refused after its leaf's notAfter")
    func verificationTimeDecides() throws {
        let verifier = try Self.verifier("roots/root-a.pem")
        let later = Date(timeIntervalSince1970: 5_000_000_000)  // 2128, past every fixture
        let failure = try #require(verifier.verify(try Self.served("valid-ec256"), host: "localhost", at: later).failure)
        #expect(failure.kind == .expired)
    }

    @Test("roots that hold no certificate are refused when the verifier is made, with a typed error")
    func unusableRootsRefusedAtConstruction() {
        #expect(throws: ChainVerifier.UnusableRoots.self) { try ChainVerifier(trustRoots: .only(pem: "not a certificate")) }
    }

    @Test("no certificate, or bytes that are not DER, are a refusal, never a crash")
    func malformedInputIsARefusal() throws {
        let verifier = try Self.verifier("roots/root-a.pem")
        #expect(verifier.verify([], host: "localhost", at: Self.time).failure?.kind == .other)
        let garbage = ServerCertificate(der: Data([0x30, 0x82, 0xFF, 0xFF, 0x01]), spkiSHA256: "", subject: "", issuer: "")
        #expect(verifier.verify([garbage], host: "localhost", at: Self.time).failure?.kind == .other)
        var served = try Self.served("valid-ec256")
        served.append(garbage)
        #expect(verifier.verify(served, host: "localhost", at: Self.time).failure?.kind == .other)
    }
}
