import Foundation

/// The certificate catalogue (`Fixtures/certs/manifest.json`): scenarios with their host, roots, served
/// chain, key, expected standard-validation outcome and pins.
public struct FixtureCatalogue: Sendable {

    /// One certificate of a scenario.
    package struct Certificate: Sendable, Decodable {
        /// `leaf`, `intermediate-1`, `root`, …
        package var role: String
        /// The certificate's PEM file, fixture-relative.
        package var file: String
        /// The SPKI pin (base64 SHA-256 of the DER SubjectPublicKeyInfo).
        package var pin: String
        /// The subject, one line.
        package var subject: String
    }

    /// One scenario of the catalogue.
    package struct Scenario: Sendable, Decodable {
        /// The scenario's name, also its directory.
        package var name: String
        /// `chain`, or `key` for a spare key in no chain.
        package var kind: String
        /// The host name the leaf is for.
        package var host: String?
        /// The roots to trust, fixture-relative.
        package var trust: [String]?
        /// The served chain file, fixture-relative.
        package var served: String?
        /// The leaf key file, fixture-relative.
        package var key: String?
        /// `valid`, or the `ChainValidationFailure.Kind` standard validation must report.
        package var expected: String
        /// What the scenario is.
        package var description: String?
        /// The certificates, with pins.
        package var certificates: [Certificate]?
        /// The pins of the chain a verifier builds, leaf first.
        package var verifiedChainPins: [String]?
        /// The error `openssl verify` reports for the chain (0: none).
        package var opensslVerifyError: Int?
        /// The pin of the scenario's key.
        package var keyPin: String?

        /// The pin of the certificate with this role.
        package func pin(_ role: String) -> String? { certificates?.first { $0.role == role }?.pin }
    }

    private struct Manifest: Decodable {
        var version: Int?
        var scenarios: [Scenario]
    }

    /// The directory holding `manifest.json`.
    public let directory: URL
    /// The scenarios, in manifest order.
    package let scenarios: [Scenario]

    /// Loads the catalogue from a directory.
    ///
    /// - Throws: the error of reading or decoding the manifest.
    public init(directory: URL) throws {
        self.directory = directory
        let data = try Data(contentsOf: directory.appendingPathComponent("manifest.json"))
        scenarios = try JSONDecoder().decode(Manifest.self, from: data).scenarios
    }

    /// The absolute path of a fixture-relative file.
    package func path(_ relative: String) -> String { directory.appendingPathComponent(relative).path }

    /// The scenario with this name.
    package func scenario(_ name: String) -> Scenario? { scenarios.first { $0.name == name } }

    /// Finds `Fixtures/certs`: `$CONFORMANCE_FIXTURES`, then from the working directory upwards, then
    /// next to this source file (a build from a checkout).
    public static func locate() throws -> FixtureCatalogue {
        let candidates = RepositoryFolder.candidates("Fixtures/certs", environment: "CONFORMANCE_FIXTURES")
        guard
            let found = candidates.first(where: { FileManager.default.fileExists(atPath: $0.appendingPathComponent("manifest.json").path) })
        else {
            throw FixturesNotFound(searched: candidates.map(\.path))
        }
        return try FixtureCatalogue(directory: found)
    }
}

/// The certificate catalogue could not be found.
public struct FixturesNotFound: Error, CustomStringConvertible {
    /// Where the runner looked.
    public let searched: [String]
    public var description: String {
        "Fixtures/certs/manifest.json not found (set CONFORMANCE_FIXTURES); searched: \(searched.joined(separator: ", "))"
    }
}
