import Foundation
@testable import Reference
import Testing

/// The profile scenarios of the certificate manifest (kind `profile`), with what the conformance library's
/// reader leaves out: the verdict and depth under each profile, and the verification time.
struct ProfileScenario: Decodable, Sendable {
    struct Verdict: Decodable, Sendable {
        var expected: String
        var depth: Int?
    }
    var name: String
    var kind: String
    var host: String?
    var trust: [String]?
    var served: String?
    var expected: String
    var verificationTime: String?
    var profiles: [String: Verdict]?

    private struct Manifest: Decodable { var scenarios: [ProfileScenario] }

    static let all: [ProfileScenario] = {
        let data = try! Data(contentsOf: Fixtures.certificates.appendingPathComponent("manifest.json"))
        return try! JSONDecoder().decode(Manifest.self, from: data).scenarios
    }()

    static func named(_ name: String) -> ProfileScenario { all.first { $0.name == name }! }

    /// A fixed time inside every good certificate's validity (2020 .. 2120), unless the scenario sets one.
    var time: Date {
        verificationTime.flatMap { ISO8601DateFormatter().date(from: $0) } ?? Date(timeIntervalSince1970: 2_500_000_000)
    }

    /// The verdict of the stack's verification of this chain under a profile.
    /// Verifies the scenario's chain under a profile, its roots named public (the manifest's verdicts are for public
    /// roots) unless `publicRoots` is `false`.
    func verify(
        _ profile: ValidationProfile, maximumChainDepth: Int? = nil, publicRoots: Bool = true
    ) throws -> Result<Void, ChainValidationFailure> {
        let verifier = try ChainVerifier(
            trustRoots: try .only(pemFiles: (trust ?? []).map(Fixtures.path), public: publicRoots), validationProfile: profile,
            maximumChainDepth: maximumChainDepth)
        return verifier.verify(try ServerCertificate.certificates(pemFile: Fixtures.path(served!)), host: host!, at: time).map { _ in () }
    }

    /// The manifest's verdict under a profile: `valid` or a failure kind, and the depth refused.
    func verdict(_ profile: ValidationProfile) -> Verdict {
        profiles?[profile.name] ?? Verdict(expected: expected, depth: nil)
    }
}

/// Checks a scenario under both profiles against the manifest, and that strict refuses it as `kind` (by
/// `rule`, when a profile rule rather than OpenSSL decides) at the manifest's depth.
func expectRefusedByStrictOnly(
    _ name: String, kind: ChainValidationFailure.Kind, rule: ValidationRule?, sourceLocation: SourceLocation = #_sourceLocation
) throws {
    let scenario = ProfileScenario.named(name)
    let strict = scenario.verdict(.strict)
    #expect(strict.expected == kind.rawValue, "manifest", sourceLocation: sourceLocation)
    switch try scenario.verify(.strict) {
    case .success:
        Issue.record("strict accepted \(name)", sourceLocation: sourceLocation)
    case .failure(let failure):
        #expect(failure.kind == kind, "\(failure)", sourceLocation: sourceLocation)
        #expect(failure.depth == strict.depth, "\(failure)", sourceLocation: sourceLocation)
        #expect(failure.rule == rule, "\(failure)", sourceLocation: sourceLocation)
    }
    #expect(scenario.verdict(.compatible).expected == "valid", "manifest", sourceLocation: sourceLocation)
    let compatible = try scenario.verify(.compatible)
    #expect((try? compatible.get()) != nil, "compatible refused \(name): \(compatible)", sourceLocation: sourceLocation)
}
