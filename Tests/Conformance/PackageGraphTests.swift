import Foundation
import TestTraits
import Testing

/// The package's targets and what each depends on, read from the manifest as SwiftPM evaluates it.
private struct TargetGraph {
    let dependencies: [String: [String]]

    init() throws {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("package-graph-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("package-graph-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: output) }
        try #require(FileManager.default.createFile(atPath: output.path, contents: nil))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        // A scratch path of its own: the test runs while `swift test` holds the package's .build.
        process.arguments = [
            "swift", "package", "--package-path", BuiltExecutable.packageRoot.path, "--scratch-path", scratch.path, "dump-package",
        ]
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0, "swift package dump-package failed")
        struct Manifest: Decodable {
            struct Target: Decodable {
                let name: String
                let dependencies: [[String: [String?]]]
            }
            let targets: [Target]
        }
        let manifest = try JSONDecoder().decode(Manifest.self, from: Data(contentsOf: output))
        // Each dependency is `{"byName" | "target" | "product": [name, ...]}`; the name comes first.
        dependencies = Dictionary(
            uniqueKeysWithValues: manifest.targets.map { target in
                (target.name, target.dependencies.compactMap { $0.values.first?.first ?? nil })
            })
    }

    /// Every target `name` reaches, itself excluded.
    func closure(of name: String) -> Set<String> {
        var seen: Set<String> = []
        var next = dependencies[name] ?? []
        while let target = next.popLast() {
            guard seen.insert(target).inserted else { continue }
            next += dependencies[target] ?? []
        }
        return seen
    }
}

@Suite("The suite and the pinning handlers link no stack", .scaledTimeLimit(minutes: 2), .blocking)
struct PackageGraphTests {
    /// The targets that bring libcurl, or a stack built on it.
    private static let stackTargets: Set<String> = ["CCurl", "CShims", "Reference", "ReferenceConformance", "FoundationSubject"]

    @Test(
        "Conformance, Pinning and MockServer reach no libcurl target: a stack's author runs the suite without linking libcurl",
        arguments: ["Conformance", "ConformanceModel", "ConformanceCatalogue", "ConformanceReports", "Pinning", "MockServer"])
    func linksNoStack(target: String) throws {
        let graph = try TargetGraph()
        #expect(graph.dependencies[target] != nil, "no target \(target) in the manifest")
        #expect(graph.closure(of: target).isDisjoint(with: Self.stackTargets), "\(target) reaches \(graph.closure(of: target))")
    }
}
