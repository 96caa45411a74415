import Foundation
import Reference
import TestTraits
import Testing

/// The `extension-encoding` rule on certificates made for the purpose (`IssuedForTests`).
@Suite("Extensions decode as their definition says, to the last byte", .scaledTimeLimit(minutes: 1), .blocking)
struct ExtensionEncodingTests {
    private static let time = Date(timeIntervalSince1970: 2_500_000_000)
    /// An authorityInfoAccess with one OCSP location, `http://x`.
    private static let accessDescription = "3016301406082B060105050730018608687474703A2F2F78"

    private static func verify(_ leaf: String) throws -> Result<[ServerCertificate], ChainValidationFailure> {
        let verifier = try ChainVerifier(trustRoots: try .only(pemFiles: [Fixtures.path("roots/root-a.pem")]))
        let intermediate = try ServerCertificate.certificates(pemFile: Fixtures.path("valid-ec256/intermediate-1.pem"))
        return verifier.verify(try ServerCertificate.certificates(pemFile: leaf) + intermediate, host: "localhost", at: time)
    }

    /// Expects a leaf with this one extension refused by the extension-encoding rule.
    private static func expectRefused(_ name: String, extension line: String) throws {
        let issued = try IssuedForTests(by: "valid-ec256")
        // Its files live as long as it does.
        let failure = try withExtendedLifetime(issued) { try #require(try verify(try issued.leaf(name, extensions: [line])).failure) }
        #expect(failure.kind == .invalidExtension)
        #expect(failure.rule == .extensionEncoding)
    }

    @Test("a well-formed authorityInfoAccess passes, and the same with one byte after it is refused as invalid-extension")
    func trailingBytesAreMalformed() throws {
        let issued = try IssuedForTests(by: "valid-ec256")
        let good = try issued.leaf("good.pem", extensions: ["authorityInfoAccess = DER:\(Self.accessDescription)"])
        #expect(try withExtendedLifetime(issued) { try Self.verify(good).success?.count } == 3)
        try Self.expectRefused("padded.pem", extension: "authorityInfoAccess = DER:\(Self.accessDescription)00")
    }

    @Test("an extension written in BER, which OpenSSL decodes, is refused as invalid-extension: a long-form length")
    func longFormLengthIsMalformed() throws {
        // The same authorityInfoAccess, its outer length written in two octets where one is DER.
        try Self.expectRefused("long.pem", extension: "authorityInfoAccess = DER:308116\(Self.accessDescription.dropFirst(4))")
    }

    @Test("a basicConstraints with its DEFAULT cA=FALSE written out is refused as invalid-extension")
    func defaultWrittenOutIsMalformed() throws {
        try Self.expectRefused("explicit.pem", extension: "basicConstraints = critical, DER:3003010100")
    }
}
