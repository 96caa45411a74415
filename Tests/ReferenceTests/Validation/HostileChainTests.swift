import Foundation
import Reference
import TestTraits
import Testing

/// Chains made to cost a verifier: too many certificates, issuers that certify each other, a leaf with thousands of
/// names. Each is answered with a verdict, within the suite's time limit and without unbounded work.
@Suite("Hostile chains are answered, within bounds", .scaledTimeLimit(minutes: 1), .blocking)
struct HostileChainTests {
    private static let time = Date(timeIntervalSince1970: 2_500_000_000)

    private static func verifier() throws -> ChainVerifier {
        try ChainVerifier(trustRoots: try .only(pemFiles: [Fixtures.path("roots/root-a.pem")]))
    }

    private static func served(_ scenario: String) throws -> [ServerCertificate] {
        try ServerCertificate.certificates(pemFile: Fixtures.path("\(scenario)/served.pem"))
    }

    /// Every certificate of every fixture chain: about two hundred distinct certificates.
    private static func strangers() throws -> [ServerCertificate] {
        let folder = Fixtures.path("")
        return try FileManager.default.contentsOfDirectory(atPath: folder).sorted().flatMap { name in
            (try? ServerCertificate.certificates(pemFile: "\(folder)/\(name)/chain.pem")) ?? []
        }
    }

    @Test("a chain larger than a handshake carries (100 KiB) is refused unread, however it is made of")
    func oversizedChainIsRefusedUnread() throws {
        let served = try Self.served("valid-ec256")
        var thousand = [served[0]]
        while thousand.count < 1000 { thousand += try Self.strangers() }
        let failure = try #require(
            try Self.verifier().verify(thousand.prefix(1000) + [served[1]], host: "localhost", at: Self.time).failure)
        #expect(failure.reason.contains("more than a handshake carries"))
        let copies = [served[0]] + Array(repeating: served[1], count: 1000)
        #expect(
            try Self.verifier().verify(copies, host: "localhost", at: Self.time).failure?.reason.contains("more than a handshake") == true)
    }

    @Test("a hundred unrelated certificates served with a good chain leave the verified path as it is")
    func manyStrangersAreIgnored() throws {
        let served = try Self.served("valid-ec256")
        let chain = [served[0]] + (try Self.strangers()).prefix(100) + [served[1]]
        let verified = try Self.verifier().verify(chain, host: "localhost", at: Self.time).get()
        #expect(verified.count == 3)
    }

    @Test("two CAs that certify each other, served as a loop, are refused with a typed failure")
    func issuerCycleIsRefused() throws {
        let cycle = try IssuerCycle()
        let failure = try #require(try Self.verifier().verify(try cycle.served(), host: "localhost", at: Self.time).failure)
        #expect(failure.kind == .unableToGetIssuer || failure.kind == .untrustedRoot)
    }

    @Test("a leaf with four thousand names is judged by every rule: accepted for its last name, refused for one it lacks")
    func hugeSubjectAltNameIsJudged() throws {
        let chain = [try IssuerCycle.hugeLeaf(names: 4000), try Self.served("valid-ec256")[1]]
        #expect(try Self.verifier().verify(chain, host: "host3999.example.test", at: Self.time).success?.count == 3)
        #expect(try Self.verifier().verify(chain, host: "localhost", at: Self.time).failure?.kind == .hostnameMismatch)
    }
}

/// Certificates the fixture catalogue has no use for elsewhere, made with the `openssl` tool in a scratch folder.
private final class IssuerCycle {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-\(UUID().uuidString)")

    init() throws {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for name in ["a", "b", "leaf"] {
            try OpenSSLCommand.run(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", path("\(name).key")])
        }
        // Self-signed A and B first, so that each can then issue the other.
        for name in ["a", "b"] {
            try OpenSSLCommand.run([
                "req", "-x509", "-new", "-key", path("\(name).key"), "-subj", "/CN=Cycle \(name)", "-days", "36500",
                "-addext", "basicConstraints=critical,CA:TRUE", "-out", path("\(name)-self.pem"),
            ])
        }
        try issue("/CN=Cycle a", key: "a", by: "b", out: "a.pem", ca: true)
        try issue("/CN=Cycle b", key: "b", by: "a", out: "b.pem", ca: true)
        try issue("/CN=localhost", key: "leaf", by: "a", out: "leaf.pem", ca: false)
    }

    deinit { try? FileManager.default.removeItem(at: folder) }

    func path(_ file: String) -> String { folder.appendingPathComponent(file).path }

    /// The leaf, then A and B, each the issuer of the one before, and B issued by A.
    func served() throws -> [ServerCertificate] {
        try ["leaf.pem", "a.pem", "b.pem", "a.pem", "b.pem"].flatMap { try ServerCertificate.certificates(pemFile: path($0)) }
    }

    private func issue(_ subject: String, key: String, by issuer: String, out: String, ca: Bool) throws {
        try OpenSSLCommand.run(["req", "-new", "-key", path("\(key).key"), "-subj", subject, "-out", path("\(key).csr")])
        let extensions = path("\(key).ext")
        let text =
            ca
            ? "basicConstraints=critical,CA:TRUE\n"
            : "basicConstraints=critical,CA:FALSE\nsubjectAltName=DNS:localhost\nextendedKeyUsage=serverAuth\n"
        try text.write(toFile: extensions, atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "x509", "-req", "-in", path("\(key).csr"), "-CA", path("\(issuer)-self.pem"), "-CAkey", path("\(issuer).key"),
            "-CAcreateserial", "-days", "36500", "-extfile", extensions, "-out", path(out),
        ])
    }

    /// A leaf whose subjectAltName holds `names` DNS names (`host0.example.test` …), none of them `localhost`, issued
    /// by the `valid-ec256` fixture intermediate.
    static func hugeLeaf(names: Int) throws -> ServerCertificate {
        let scratch = try IssuerCycle()
        let sans = (0..<names).map { "DNS:host\($0).example.test" }.joined(separator: ",")
        let extensions = """
            basicConstraints=critical,CA:FALSE
            keyUsage=critical,digitalSignature
            extendedKeyUsage=serverAuth
            subjectKeyIdentifier=hash
            authorityKeyIdentifier=keyid:always
            subjectAltName=\(sans)

            """
        try extensions.write(toFile: scratch.path("huge.ext"), atomically: true, encoding: .utf8)
        try OpenSSLCommand.run([
            "req", "-new", "-key", scratch.path("leaf.key"), "-subj", "/CN=host0.example.test", "-out", scratch.path("huge.csr"),
        ])
        try OpenSSLCommand.run([
            "x509", "-req", "-in", scratch.path("huge.csr"), "-CA", Fixtures.path("valid-ec256/intermediate-1.pem"),
            "-CAkey", Fixtures.path("valid-ec256/intermediate-1.key"), "-set_serial", "4242", "-days", "36500",
            "-extfile", scratch.path("huge.ext"), "-out", scratch.path("huge.pem"),
        ])
        return try ServerCertificate.certificates(pemFile: scratch.path("huge.pem"))[0]
    }
}
