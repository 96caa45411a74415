import Foundation
import Reference
import TestTraits
import Testing

/// Revocation through `ChainVerifier`, the code a handshake runs, at chosen verification times: held lists and
/// stapled OCSP responses from the `revocation` fixtures (`make-chain --crl/--ocsp`).
@Suite("Revocation, judged at the verification time", .scaledTimeLimit(minutes: 1), .blocking)
struct RevocationTests {
    private static let time = Date(timeIntervalSince1970: 2_500_000_000)  // 2049: inside the chain's validity

    private static func verify(
        _ policy: RevocationPolicy, at time: Date = time, staple: String? = nil, scenario: String = "revocation"
    ) throws -> Result<[ServerCertificate], ChainValidationFailure> {
        let verifier = try ChainVerifier(trustRoots: try .only(pemFiles: [Fixtures.path("roots/root-a.pem")]), revocation: policy)
        let response = try staple.map { Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("\(scenario)/\($0)")))) }
        let served = try ServerCertificate.certificates(pemFile: Fixtures.path("\(scenario)/served.pem"))
        return verifier.verify(served, host: "localhost", at: time, stapledOCSPResponse: response)
    }

    private static func lists(_ files: String...) throws -> [CertificateRevocationList] {
        try files.flatMap { try CertificateRevocationList.lists(file: Fixtures.path("revocation/\($0)")) }
    }

    /// thisUpdate and nextUpdate of a fixture response, as `openssl ocsp` prints them.
    private static func updates(of response: String) throws -> (this: Date, next: Date) {
        let text = try OpenSSLCommand.run(["ocsp", "-respin", Fixtures.path("revocation/\(response)"), "-resp_text", "-noverify"])
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "MMM d HH:mm:ss yyyy zzz"
        func date(after label: String) throws -> Date {
            let line = try #require(text.split(separator: "\n").first { $0.contains(label) })
            let value = line.split(separator: ":", maxSplits: 1)[1].split(separator: " ").joined(separator: " ")
            return try #require(formatter.date(from: value), "\(value)")
        }
        return (try date(after: "This Update:"), try date(after: "Next Update:"))
    }

    @Test("a leaf a held list names is refused as revoked, at depth 0")
    func listedLeafIsRevoked() throws {
        let failure = try #require(try Self.verify(RevocationPolicy(revocationLists: try Self.lists("crl-revoked.pem"))).failure)
        #expect(failure.kind == .revoked)
        #expect(failure.depth == 0)
    }

    @Test("a list is judged at the verification time: current in 2020, past its nextUpdate (2021) later")
    func listFreshnessFollowsTheVerificationTime() throws {
        let policy = RevocationPolicy(revocationLists: try Self.lists("crl-expired.pem"))
        #expect(try Self.verify(policy, at: ISO8601DateFormatter().date(from: "2020-06-01T00:00:00Z")!).success != nil)
        #expect(try Self.verify(policy).failure?.kind == .invalidRevocationData)
    }

    @Test("whole-chain coverage needs a list for every certificate: the intermediate's issuer has none without the root's")
    func chainCoverageNeedsEveryIssuersList() throws {
        let leafOnly = RevocationPolicy(revocationLists: try Self.lists("crl-good.pem"), listCoverage: .chain)
        let missing = try #require(try Self.verify(leafOnly).failure)
        #expect(missing.kind == .revocationUnavailable)
        #expect(missing.depth == 1)
        let both = RevocationPolicy(revocationLists: try Self.lists("crl-good.pem", "root-crl.pem"), listCoverage: .chain)
        #expect(try Self.verify(both).success?.count == 3)
        #expect(try Self.verify(RevocationPolicy(listCoverage: .leaf)).failure?.kind == .revocationUnavailable)
    }

    @Test("a staple is judged at the verification time: good before its nextUpdate, stale after it, not yet valid before its thisUpdate")
    func stapleFreshnessFollowsTheVerificationTime() throws {
        let policy = RevocationPolicy(stapling: .checkedWhenStapled)
        let (thisUpdate, nextUpdate) = try Self.updates(of: "ocsp-stale.der")
        #expect(nextUpdate.timeIntervalSince(thisUpdate) == 60)
        #expect(try Self.verify(policy, at: thisUpdate.addingTimeInterval(30), staple: "ocsp-stale.der").success != nil)
        let stale = try #require(try Self.verify(policy, at: nextUpdate.addingTimeInterval(1), staple: "ocsp-stale.der").failure)
        #expect(stale.kind == .invalidRevocationData)
        #expect(stale.reason.contains("stale"))
        let early = try #require(try Self.verify(policy, at: thisUpdate.addingTimeInterval(-3600), staple: "ocsp-stale.der").failure)
        #expect(early.reason.contains("not yet valid"))
    }

    @Test(
        "a staple that says revoked, or does not know the leaf, or comes from an unrelated signer, is refused; a delegated responder's is not"
    )
    func stapleStatusAndSigner() throws {
        let policy = RevocationPolicy(stapling: .checkedWhenStapled)
        let now = try Self.updates(of: "ocsp-good.der").this.addingTimeInterval(60)
        #expect(try Self.verify(policy, at: now, staple: "ocsp-good.der").success != nil)
        #expect(try Self.verify(policy, at: now, staple: "ocsp-delegated.der").success != nil)
        #expect(try Self.verify(policy, at: now, staple: "ocsp-revoked.der").failure?.kind == .revoked)
        #expect(try Self.verify(policy, at: now, staple: "ocsp-unknown.der").failure?.kind == .revocationUnavailable)
        let foreign = try #require(try Self.verify(policy, at: now, staple: "ocsp-wrong-responder.der").failure)
        #expect(foreign.kind == .invalidRevocationData)
        #expect(foreign.reason.contains("Unrelated OCSP Responder"))
    }

    @Test("bytes that are not an OCSP response are refused as invalid data, never a crash")
    func garbageStapleIsRefused() throws {
        let verifier = try ChainVerifier(
            trustRoots: try .only(pemFiles: [Fixtures.path("roots/root-a.pem")]),
            revocation: RevocationPolicy(stapling: .checkedWhenStapled))
        let served = try ServerCertificate.certificates(pemFile: Fixtures.path("revocation/served.pem"))
        for garbage: [UInt8] in [[0x30], [0x30, 0x82, 0xFF, 0xFF], Array(repeating: 0x41, count: 4096), [0x30, 0x03, 0x0A, 0x01, 0x00]] {
            #expect(
                verifier.verify(served, host: "localhost", at: Self.time, stapledOCSPResponse: garbage).failure?.kind
                    == .invalidRevocationData)
        }
    }

    @Test("a good staple with a byte after its DER value is invalid data, not a good staple")
    func bytesAfterAStapleAreRefused() throws {
        let good = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("revocation/ocsp-good.der"))))
        let verifier = try ChainVerifier(
            trustRoots: try .only(pemFiles: [Fixtures.path("roots/root-a.pem")]),
            revocation: RevocationPolicy(stapling: .checkedWhenStapled))
        let served = try ServerCertificate.certificates(pemFile: Fixtures.path("revocation/served.pem"))
        #expect(verifier.verify(served, host: "localhost", at: Self.time, stapledOCSPResponse: good).success != nil)
        #expect(
            verifier.verify(served, host: "localhost", at: Self.time, stapledOCSPResponse: good + [0]).failure?.kind
                == .invalidRevocationData)
    }

    @Test("a missing staple fails only where it is required: by the policy, or by a must-staple leaf")
    func missingStaple() throws {
        #expect(try Self.verify(RevocationPolicy(stapling: .checkedWhenStapled)).success != nil)
        #expect(try Self.verify(RevocationPolicy(stapling: .required)).failure?.kind == .revocationUnavailable)
        let mustStaple = try #require(
            try Self.verify(RevocationPolicy(stapling: .checkedWhenStapled), scenario: "revocation-must-staple").failure)
        #expect(mustStaple.kind == .revocationUnavailable)
        #expect(mustStaple.reason.contains("status_request"))
        #expect(try Self.verify(.off, scenario: "revocation-must-staple").success != nil)
    }

    @Test("with revocation off, a revoked staple and a list are not consulted")
    func offChecksNothing() throws {
        #expect(try Self.verify(.off, staple: "ocsp-revoked.der").success != nil)
        #expect(RevocationPolicy.off.isOff)
        #expect(!RevocationPolicy(listCoverage: .leaf).isOff)
    }

    @Test("a held list from the certificate's issuer that OpenSSL cannot use (partial reasons) refuses rather than passes")
    func unusableHeldListRefuses() throws {
        let partial = Fixtures.path("revocation/crl-partial.pem")
        let policy = RevocationPolicy(revocationLists: try CertificateRevocationList.lists(file: partial))
        let failure = try #require(try Self.verify(policy).failure)
        #expect(failure.kind == .revocationUnavailable)
        #expect(failure.depth == 0)
    }

    @Test("a delta list is refused when it is loaded: OpenSSL would take it for the whole list and miss what only its base revokes")
    func deltaListIsRefusedAtLoading() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("delta-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try Data().write(to: URL(fileURLWithPath: "\(folder)/index.txt"))
        try Data("02\n".utf8).write(to: URL(fileURLWithPath: "\(folder)/crlnumber"))
        let configuration = """
            [ca]
            default_ca = base
            [base]
            database = \(folder)/index.txt
            crlnumber = \(folder)/crlnumber
            default_md = sha256
            crl_extensions = delta
            [delta]
            2.5.29.27 = critical,DER:02:01:01
            """
        try Data(configuration.utf8).write(to: URL(fileURLWithPath: "\(folder)/ca.cnf"))
        try OpenSSLCommand.run([
            "ca", "-gencrl", "-batch", "-config", "\(folder)/ca.cnf", "-cert", Fixtures.path("revocation/intermediate-1.pem"),
            "-keyfile", Fixtures.path("revocation/intermediate-1.key"), "-crldays", "30", "-out", "\(folder)/delta.pem",
        ])
        let error = try #require(throws: CertificateRevocationList.ReadError.self) {
            try CertificateRevocationList.lists(file: "\(folder)/delta.pem")
        }
        #expect(error.reason.contains("delta list"))
    }
}
