// Not part of the tour: the check that README.md shows each file of this folder as it is.
import Foundation
import Testing

@Suite("The README shows the tour's files exactly")
struct ReadmeShowsTheseFiles {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    static let readme = folder.appendingPathComponent("../../README.md").standardizedFileURL

    @Test(
        "each tour file appears in README.md as one whole Swift block",
        arguments: ["Tour.swift", "HTTP2Tour.swift", "ClientCertificateTour.swift", "RevocationTour.swift"])
    func shownWhole(file: String) throws {
        let code = try String(contentsOf: Self.folder.appendingPathComponent(file), encoding: .utf8)
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(readme.contains("```swift\n" + code + "```\n"), "README.md does not show Tests/ReadmeTour/\(file) as it is: copy it")
    }
}
