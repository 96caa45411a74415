import Foundation
@testable import Conformance
@testable import ConformanceModel
import Testing

@Suite("A catalogue built without its fixtures is refused, never run short")
struct CatalogueIncompleteTests {

    @Test("the catalogue built from this repository's fixtures is complete")
    func repositoryCatalogueIsComplete() {
        #expect(CatalogueIncomplete.ofCatalogue.isEmpty, "\(CatalogueIncomplete.ofCatalogue)")
    }

    /// A certificate catalogue folder with this repository's manifest and no `bodies` folder beside it.
    private static func certificatesWithoutBodies() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)/certs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let manifest = try FixtureCatalogue.locate().directory.appendingPathComponent("manifest.json")
        try FileManager.default.copyItem(at: manifest, to: folder.appendingPathComponent("manifest.json"))
        return folder
    }

    @Test("fixtures that cannot be found make the catalogue incomplete, saying where they were looked for")
    func missingCatalogueIsNamed() {
        let problems = CatalogueIncomplete.problems { throw FixturesNotFound(searched: ["/nowhere/Fixtures/certs"]) }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("/nowhere/Fixtures/certs") == true)
    }

    @Test("a certificate catalogue without the gzip bomb beside it makes the catalogue incomplete, naming the file")
    func missingBodyIsNamed() throws {
        let folder = try Self.certificatesWithoutBodies()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

        let problems = CatalogueIncomplete.problems { try FixtureCatalogue(directory: folder) }

        #expect(problems.count == 1)
        #expect(problems.first?.hasSuffix("bodies/zeros-100MiB-plus-1.gz") == true)
    }

    @Test("the catalogue built from the fixtures it is handed holds every case of Catalogue.all, in order")
    func builtFromFixturesHanded() throws {
        let cases = try Catalogue.cases(from: try FixtureCatalogue.locate())
        #expect(cases.map(\.id) == Catalogue.all.map(\.id))
    }

    @Test("fixtures without the gzip bomb beside them are refused when the catalogue is built, naming the file")
    func buildingFromIncompleteFixturesThrows() throws {
        let folder = try Self.certificatesWithoutBodies()
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }

        let error = #expect(throws: CatalogueIncomplete.self) { try Catalogue.cases(from: try FixtureCatalogue(directory: folder)) }

        #expect(error?.problems.first?.hasSuffix("bodies/zeros-100MiB-plus-1.gz") == true)
    }

    @Test("a command that runs an incomplete catalogue exits 66 with the problems, as for missing fixtures")
    func commandStatus() {
        let failure = CommandFailure(CatalogueIncomplete(problems: ["no readable /x/bodies/zeros-100MiB-plus-1.gz"]))
        #expect(failure.status == .noInput)
        #expect(failure.description.contains("zeros-100MiB-plus-1.gz"))
    }
}
