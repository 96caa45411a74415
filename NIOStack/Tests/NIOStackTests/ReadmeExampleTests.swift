// Not part of the README: the check that it shows ReadmeNIOTour.swift, the file a user pastes, exactly.
import Foundation
import Testing

@Suite("NIO stack: the README shows its example file")
struct ReadmeExampleTests {

    @Test("README.md shows ReadmeNIOTour.swift as one whole Swift block")
    func readmeShowsTheTestedExample() throws {
        let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        let code = try String(contentsOf: folder.appendingPathComponent("ReadmeNIOTour.swift"), encoding: .utf8)
        let readme = try String(contentsOf: folder.appendingPathComponent("../../../README.md").standardizedFileURL, encoding: .utf8)
        #expect(
            readme.contains("```swift\n" + code + "```\n"),
            "README.md does not show NIOStack/Tests/NIOStackTests/ReadmeNIOTour.swift as it is")
    }
}
