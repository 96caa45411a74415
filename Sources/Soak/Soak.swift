import ArgumentParser
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
struct Soak: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "soak",
        abstract: "Soaks the reference stack: many fetches with a random mix of responses, faults and cancels.",
        discussion: """
            One stack at a time (a new one every 5,000 fetches, the old one released with its fetches pending) \
            against two MockServers in a child process, plain HTTP/1.1 and HTTP/2 over TLS. Exit status: 0; 1 on a \
            lost or double completion, or when memory grows past --rss-bound-mib after the 10 % checkpoint; 64 for a \
            usage error.
            """)

    @Option(help: ArgumentHelp("How many fetches in all.", valueName: "n"))
    var fetches = 100_000

    @Option(help: ArgumentHelp("The seed of the random mix: the same seed, the same fetches.", valueName: "s"))
    var seed: UInt64 = 1

    @Option(name: .customLong("rss-bound-mib"), help: ArgumentHelp("How much memory may grow after the 10 % checkpoint.", valueName: "mib"))
    var rssBoundMiB = 5

    /// Set in the child process that serves the soak.
    @Flag(help: .private)
    var serve = false

    func validate() throws {
        guard fetches >= 1 else { throw ValidationError("--fetches needs at least 1 fetch, not \(fetches)") }
        guard (0...(1 << 20)).contains(rssBoundMiB) else {
            throw ValidationError("--rss-bound-mib needs 0 to \(1 << 20) MiB, not \(rssBoundMiB)")
        }
    }

    func run() throws {
        if serve { return try SoakServer.run() }
        let options = SoakRun.Options(fetches: fetches, seed: seed, rssBound: rssBoundMiB * 1_048_576)
        let server = try SoakServerProcess()
        defer { server.stop() }
        let passed = SoakRun(options: options, port: server.port, tlsPort: server.tlsPort).run()
        if !passed { throw ExitCode.failure }
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
