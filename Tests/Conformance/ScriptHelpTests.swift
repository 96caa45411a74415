import Foundation
import TestTraits
import Testing

/// A script's `--help` is text: it prints and runs nothing.
@Suite("Scripts' help", .scaledTimeLimit(minutes: 1), .blocking)
struct ScriptHelpTests {

    @Test("make-chain --help prints its text, backticks and all, and runs no openssl command")
    func makeChainHelpRunsNothing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fake-openssl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let marker = folder.appendingPathComponent("ran")
        let fake = folder.appendingPathComponent("openssl")
        try "#!/bin/sh\ntouch '\(marker.path)'\n".write(to: fake, atomically: true, encoding: .utf8)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: fake.path)
        let path = folder.path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")

        let outcome = try BuiltExecutable(script: "make-chain").run(["--help"], environment: ["PATH": path], limit: 30)
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("`openssl ocsp` sets thisUpdate"))
        #expect(!FileManager.default.fileExists(atPath: marker.path), "make-chain --help ran openssl")
    }
}
