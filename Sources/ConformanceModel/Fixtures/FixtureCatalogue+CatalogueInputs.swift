import Foundation

extension FixtureCatalogue {

    /// What the catalogue needs of a profile scenario beyond ``Scenario``: the strict profile's verdicts and the
    /// verification time (`Catalogue.profile` builds its cases from them; ``CatalogueIncomplete`` checks they read).
    package struct ProfileManifest: Decodable {
        package struct Scenario: Decodable {
            package struct Verdict: Decodable {
                package var expected: String
                package var depth: Int?
            }
            package var name: String
            package var kind: String
            package var host: String?
            package var description: String?
            package var verificationTime: String?
            package var profiles: [String: Verdict]?
        }
        package var scenarios: [Scenario]
    }

    /// The profile scenarios of the manifest.
    package func profileManifest() throws -> ProfileManifest {
        try JSONDecoder().decode(ProfileManifest.self, from: Data(contentsOf: directory.appendingPathComponent("manifest.json")))
    }

    /// Where the gzip bomb (`Fixtures/bodies/zeros-100MiB-plus-1.gz`) lies beside the certificate catalogue.
    package var gzipBombFile: URL {
        URL(fileURLWithPath: path("../bodies/zeros-100MiB-plus-1.gz")).standardizedFileURL
    }
}
