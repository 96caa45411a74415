import Foundation

/// A child process run to its end, its output collected in files rather than pipes, so that no reader waits on a
/// pipe's end. (Foundation's `Process` still learns of the child's exit only once every holder of the descriptors it
/// gave the child has closed them: a process the child leaves behind keeps `waitUntilExit` waiting. Spawning with
/// `posix_spawn` and `waitpid` avoids that but leaks the test's sockets, a listening one among them, into the child.)
public enum ChildProcess {
    public struct Result: Sendable {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        /// Both outputs, standard output first (for a command whose messages go to either).
        public var combinedOutput: String { standardOutput + standardError }
    }

    /// Runs `executable` with `arguments` (and `input` on its standard input, if any) until it exits.
    public static func run(
        _ executable: String, _ arguments: [String], directory: URL? = nil, environment: [String: String] = [:], input: Data? = nil
    ) throws -> Result {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("child-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let outPath = folder.appendingPathComponent("out")
        let errPath = folder.appendingPathComponent("err")
        let inPath = folder.appendingPathComponent("in")
        try Data().write(to: outPath)
        try Data().write(to: errPath)
        try (input ?? Data()).write(to: inPath)
        let out = try FileHandle(forWritingTo: outPath)
        let err = try FileHandle(forWritingTo: errPath)
        let inputHandle = try FileHandle(forReadingFrom: inPath)
        defer { for handle in [out, err, inputHandle] { try? handle.close() } }

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let directory { process.currentDirectoryURL = directory }
        process.standardOutput = out
        process.standardError = err
        process.standardInput = inputHandle
        try process.run()
        process.waitUntilExit()
        return Result(
            status: process.terminationStatus,
            standardOutput: String(decoding: (try? Data(contentsOf: outPath)) ?? Data(), as: UTF8.self),
            standardError: String(decoding: (try? Data(contentsOf: errPath)) ?? Data(), as: UTF8.self))
    }
}
