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

    @Test("fixtures that cannot be found make the catalogue incomplete, saying where they were looked for")
    func missingCatalogueIsNamed() {
        let problems = CatalogueIncomplete.problems { throw FixturesNotFound(searched: ["/nowhere/Fixtures/certs"]) }
        #expect(problems.count == 1)
        #expect(problems.first?.contains("/nowhere/Fixtures/certs") == true)
    }

    @Test("a certificate catalogue without the gzip bomb beside it makes the catalogue incomplete, naming the file")
    func missingBodyIsNamed() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("catalogue-\(UUID().uuidString)/certs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder.deletingLastPathComponent()) }
        let manifest = try FixtureCatalogue.locate().directory.appendingPathComponent("manifest.json")
        try FileManager.default.copyItem(at: manifest, to: folder.appendingPathComponent("manifest.json"))

        let problems = CatalogueIncomplete.problems { try FixtureCatalogue(directory: folder) }

        #expect(problems.count == 1)
        #expect(problems.first?.hasSuffix("bodies/zeros-100MiB-plus-1.gz") == true)
    }

    @Test("a command that runs an incomplete catalogue exits 66 with the problems, as for missing fixtures")
    func commandStatus() {
        let failure = CommandFailure(CatalogueIncomplete(problems: ["no readable /x/bodies/zeros-100MiB-plus-1.gz"]))
        #expect(failure.status == .noInput)
        #expect(failure.description.contains("zeros-100MiB-plus-1.gz"))
    }
}
