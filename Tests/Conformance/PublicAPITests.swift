import Foundation
import TestTraits
import Testing

private let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent()

/// Type-checks a file against the modules this test run was built from, as a third party's code is: without
/// the package name, so `package` declarations are out of reach.
private func typecheckAsThirdParty(_ file: URL) throws -> (Int32, String) {
    let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    var arguments = [
        "swiftc", "-typecheck", "-parse-as-library", "-swift-version", "6",
        "-I", bin.appendingPathComponent("Modules").path, "-I", bin.path,
    ]
    let sources = repository.appendingPathComponent("Sources")
    for module in try FileManager.default.contentsOfDirectory(atPath: sources.path).sorted()
    where FileManager.default.fileExists(atPath: sources.appendingPathComponent("\(module)/module.modulemap").path) {
        arguments += ["-I", sources.appendingPathComponent(module).path]
    }
    for entry in try FileManager.default.contentsOfDirectory(atPath: bin.path).sorted() where entry.hasSuffix(".build") {
        let map = bin.appendingPathComponent("\(entry)/module.modulemap")
        if FileManager.default.fileExists(atPath: map.path) { arguments += ["-Xcc", "-fmodule-map-file=\(map.path)"] }
    }
    let result = try ChildProcess.run("/usr/bin/env", arguments + [file.path])
    return (result.status, result.combinedOutput)
}

@Suite("A subject needs only the public API", .scaledTimeLimit(minutes: 1), .blocking)
struct PublicAPITests {

    @Test("CustomSubjectExample.swift compiles as a third party's code, with no package declaration")
    func exampleUsesPublicAPIOnly() throws {
        let bin = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        try #require(
            FileManager.default.fileExists(atPath: bin.appendingPathComponent("Modules/Conformance.swiftmodule").path),
            "the test binary is not next to the built modules: \(bin.path)")
        let (status, output) = try typecheckAsThirdParty(repository.appendingPathComponent("Tests/Conformance/CustomSubjectExample.swift"))
        #expect(status == 0, "\(output)")
    }
}
