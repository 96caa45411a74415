import Foundation

/// The catalogue was built without fixtures some of its families read (the certificate catalogue, its manifest's
/// profile scenarios, the gzip bomb): those families' cases are missing from `Catalogue.all`, so a run would judge
/// less than the suite and say nothing of it. ``ConformanceRunner`` refuses to start instead, and
/// `Catalogue.cases(from:)` refuses to build from such fixtures.
public struct CatalogueIncomplete: Error, Sendable, CustomStringConvertible {

    /// What could not be read, one line each.
    public let problems: [String]

    package init(problems: [String]) {
        self.problems = problems
    }

    public var description: String {
        "the catalogue is incomplete (cases of the families that read fixtures are missing): " + problems.joined(separator: "; ")
    }

    /// The problems of the fixtures `Catalogue.all` was built from, read once: empty when every fixture was there.
    public static let ofCatalogue: [String] = problems(locating: FixtureCatalogue.locate)

    /// What the catalogue's families cannot read of the fixtures a locator finds.
    package static func problems(locating locate: () throws -> FixtureCatalogue) -> [String] {
        let fixtures: FixtureCatalogue
        do {
            fixtures = try locate()
        } catch {
            return ["\(error)"]
        }
        var problems: [String] = []
        do {
            _ = try fixtures.profileManifest()
        } catch {
            problems.append("the profile scenarios of \(fixtures.directory.path)/manifest.json: \(error)")
        }
        let bomb = fixtures.gzipBombFile
        if !FileManager.default.isReadableFile(atPath: bomb.path) { problems.append("no readable \(bomb.path)") }
        return problems
    }
}
