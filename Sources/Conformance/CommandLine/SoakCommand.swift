import ArgumentParser
import ConformanceModel
import Foundation

/// `conformance soak`: a bounded soak of a subject's stack (``SoakRun``), against two MockServers in a child process
/// (this executable again, `soak --serve`), so that the servers' journals do not count against the stack's memory.
struct SoakCommand: ConformanceSubcommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "soak",
            abstract: "Soaks a subject's stack: many fetches with a random mix of responses, faults and cancels.",
            discussion: """
                One stack at a time (a new one every 5,000 fetches, the old one released with its fetches pending) \
                against two MockServers in a child process, plain HTTP/1.1 and HTTP/2 over TLS (a stack that offers \
                only HTTP/1.1 speaks it to both); the faults include the hostile HTTP/2 peers of ERR-22. Prints fetches, completions, lost and double completions, and the \
                process's heap in use, memory, descriptors and threads after 10 % of the fetches and at the end. Exit \
                status: 0; 1 on a lost or double completion, or when the heap in use, descriptors or threads grow past \
                their bounds after the 10 % checkpoint; 64 for a usage error, 66 for missing fixtures, 70 when the \
                soak's server process does not start.
                """)
    }

    @OptionGroup var subject: SubjectChoice

    @Option(help: ArgumentHelp("How many fetches in all.", valueName: "n"))
    var fetches = 100_000

    @Option(help: ArgumentHelp("The seed of the random mix: the same seed, the same fetches.", valueName: "s"))
    var seed: UInt64 = 1

    @Option(
        name: [.customLong("heap-bound-mib"), .customLong("rss-bound-mib")],
        help: ArgumentHelp(
            "How much the heap in use may grow after the 10 % checkpoint (--rss-bound-mib is its old name).", valueName: "mib"))
    var heapBoundMiB = 5

    /// Set in the child process that serves the soak.
    @Flag(help: .private)
    var serve = false

    func validate() throws {
        guard fetches >= 1 else { throw ValidationError("--fetches needs at least 1 fetch, not \(fetches)") }
        guard (0...(1 << 20)).contains(heapBoundMiB) else {
            throw ValidationError("--heap-bound-mib needs 0 to \(1 << 20) MiB, not \(heapBoundMiB)")
        }
    }

    func execute(_ context: CommandContext) throws -> Int32 {
        let fixtures = try FixtureCatalogue.locate()
        if serve {
            try SoakServer.run(fixtures)
            return 0
        }
        // The servers run in a child process of this executable: a library caller's process (a test runner) is not one.
        guard context.workerArguments != nil else {
            throw CommandFailure(.usage, "soak runs only from a command's own executable (ConformanceCommandLine.main)")
        }
        let chosen = try subject.chosen(context)
        let server = try SoakServerProcess()
        defer { server.stop() }
        let options = SoakRun.Options(fetches: fetches, seed: seed, heapBound: heapBoundMiB * 1_048_576)
        let run = SoakRun(options: options, port: server.port, tlsPort: server.tlsPort, roots: SoakServer.roots(fixtures))
        return run.run(chosen) ? 0 : 1
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
        process.executableURL = URL(fileURLWithPath: try WorkerProcess.currentExecutable())
        process.arguments = ["soak", "--serve"]
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        let line = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let ports = line.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard ports.count == 2 else {
            process.terminate()
            throw CommandFailure(.software, "the soak's server printed no ports: \(line)")
        }
        (port, tlsPort) = (ports[0], ports[1])
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        process.waitUntilExit()
    }
}
