import Foundation
import Testing

/// An executable of this package (`conformance`, `Soak`, `TrappingSubject`), built beside the test bundle by
/// `swift build --build-tests`, run in a child process as a user would run it.
struct BuiltExecutable {

    /// What one run printed and how it ended.
    struct Outcome {
        /// The exit status; `nil` when the run was killed at its time limit.
        var status: Int32?
        var output: String
        var errors: String
    }

    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    let url: URL

    /// Any program, run the same way.
    init(at url: URL) {
        self.url = url
    }

    /// A script of the package's `Scripts` folder.
    init(script name: String) {
        url = Self.packageRoot.appendingPathComponent("Scripts/\(name)")
    }

    /// Finds the executable beside the test bundle, or in `.build/debug` of the package.
    init(_ name: String) throws {
        var directory = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<4 {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) {
                url = candidate
                return
            }
            directory.deleteLastPathComponent()
        }
        url = Self.packageRoot.appendingPathComponent(".build/debug/\(name)")
        try #require(FileManager.default.isExecutableFile(atPath: url.path), "\(name) not built: run swift build --build-tests")
    }

    /// Runs it with the fixtures of this package and `environment`, waiting at most `limit` seconds for it to end
    /// (then it is killed). Its output goes to files, so that a long output cannot block it on a full pipe.
    func run(_ arguments: [String], environment: [String: String] = [:], input: URL? = nil, limit: TimeInterval = 60) throws -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let output = folder.appendingPathComponent("stdout")
        let errors = folder.appendingPathComponent("stderr")
        try Data().write(to: output)
        try Data().write(to: errors)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        var merged = ProcessInfo.processInfo.environment
        merged["CONFORMANCE_FIXTURES"] = Self.packageRoot.appendingPathComponent("Fixtures/certs").path
        merged.merge(environment) { _, given in given }
        process.environment = merged
        process.currentDirectoryURL = Self.packageRoot
        process.standardInput = try input.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = try FileHandle(forWritingTo: errors)
        let ended = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in ended.signal() }
        try process.run()
        var killed = false
        if ended.wait(timeout: .now() + limit) == .timedOut {
            killed = true
            process.terminate()
            ended.wait()
        }
        return Outcome(
            status: killed ? nil : process.terminationStatus, output: try String(contentsOf: output, encoding: .utf8),
            errors: try String(contentsOf: errors, encoding: .utf8))
    }
}
