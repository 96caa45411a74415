import Dispatch
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Reference

/// A bounded soak of the reference stack: many fetches through one stack at a time against two MockServers in a
/// child process, plain HTTP/1.1 and HTTP/2 over TLS, with a random mix of responses, faults, cancels, immediate and delayed retries, and stacks
/// released with fetches pending. It prints fetches, completions, lost and double completions, and the
/// process's memory, descriptors and threads after 10 % of the fetches and at the end; it exits non-zero on a
/// lost or double completion, or on growth past the stated bounds.
///
///     soak [--fetches N] [--seed S] [--rss-bound-mib M]
@main
struct Soak {

    static func main() throws {
        let arguments = CommandLine.arguments
        if arguments.contains("--serve") { return try SoakServer.run() }
        func value(_ name: String, _ fallback: Int) -> Int {
            arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? Int(arguments[$0 + 1]) : nil } ?? fallback
        }
        let options = SoakRun.Options(
            fetches: value("--fetches", 100_000), seed: UInt64(value("--seed", 1)),
            rssBound: value("--rss-bound-mib", 5) * 1_048_576)
        let server = try SoakServerProcess()
        defer { server.stop() }
        let passed = SoakRun(options: options, port: server.port, tlsPort: server.tlsPort).run()
        exit(passed ? 0 : 1)
    }
}

/// The child process that serves the soak.
final class SoakServerProcess {
    let port: Int
    let tlsPort: Int
    private let process = Process()
    private let input = Pipe()

    init() throws {
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        process.arguments = ["--serve"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let ports = line.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard ports.count == 2 else {
            throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "the soak server printed no ports: \(line)"])
        }
        (port, tlsPort) = (ports[0], ports[1])
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
