import ConformanceModel
import Foundation
import NetworkCore

/// One worker process of the command line: the same executable, run with ``ConformanceWorker/flag``, given case
/// IDs on standard input; reports, as they arrive, which cases started and which finished, then how it ended.
struct WorkerProcess: Sendable {
    /// The executable to run: this process's own.
    let executable: String
    /// The worker's arguments: the command's own, so that it builds the same subject, then the flag and the watchdog.
    let arguments: [String]
    /// Seconds without a message after which the worker is taken for stuck and killed: well over the longest
    /// a case can take, so that only a subject blocked outside every watchdog (in `tearDown`, say) hits it.
    let silenceLimit: Int

    /// What one worker did.
    struct Run: Sendable {
        /// The indices, into the IDs it was given, of the cases it started.
        var started: Set<Int> = []
        /// The indices of the cases it finished.
        var finished: Set<Int> = []
        /// How it ended.
        var termination: WorkerTermination = .exited(0)
        /// The last lines it wrote on standard error (where a Swift trap says why): what a CRASH verdict quotes.
        var lastErrorLines: [String] = []
    }

    /// How many of the worker's last standard-error lines a run keeps.
    static let keptErrorLines = 5

    /// This process's own executable, for a worker of the same subjects.
    static func currentExecutable() throws -> String {
        try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
    }

    /// Runs a worker on these case IDs and waits for it to end; `finished` gets each result as it arrives, with
    /// the case's index into `ids`.
    func run(_ ids: [String], jobs: Int, finished: (Int, CaseResult) -> Void) -> Run {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments + ["--jobs", "\(jobs)"]
        var environment = ProcessInfo.processInfo.environment
        // Swift's backtracer symbolicates for seconds after a trap; the parent needs only the signal. A
        // backtrace asked for explicitly is kept.
        if environment["SWIFT_BACKTRACE"] == nil { environment["SWIFT_BACKTRACE"] = "enable=no" }
        process.environment = environment
        let input = Pipe()
        let output = Pipe()
        let errors = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = errors
        var run = Run()
        do {
            try process.run()
        } catch {
            FileHandle.standardError.write(Data("conformance: cannot start a worker (\(executable)): \(error)\n".utf8))
            run.termination = .exited(-1)
            return run
        }
        // Read before anything is written: a worker that filled its standard error must never wait on the parent.
        let errorTail = ErrorTail.forward(errors.fileHandleForReading, keeping: Self.keptErrorLines)
        // A worker that dies before reading its input must not take the parent with it (SIGPIPE): the write
        // then fails, and the worker's end is seen below.
        try? input.fileHandleForWriting.write(contentsOf: Data(ids.map { $0 + "\n" }.joined().utf8))
        try? input.fileHandleForWriting.close()
        let reader = output.fileHandleForReading
        let lastMessage = Locked(ContinuousClock.now)
        let stalled = Locked(false)
        let pid = process.processIdentifier
        let limit = Duration.seconds(silenceLimit)
        let guardTimer = DispatchSource.makeTimerSource(queue: .global())
        guardTimer.schedule(deadline: .now() + 1, repeating: 1)
        guardTimer.setEventHandler {
            guard ContinuousClock.now - lastMessage.withLock({ $0 }) > limit, !stalled.withLock({ $0 }) else { return }
            stalled.withLock { $0 = true }
            kill(pid, SIGKILL)
        }
        guardTimer.resume()
        var buffer = Data()
        while true {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            lastMessage.withLock { $0 = .now }
            buffer.append(chunk)
            while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = buffer[buffer.startIndex..<newline]
                buffer = Data(buffer[buffer.index(after: newline)...])
                guard let message = WorkerMessage(line: Data(line)) else { continue }
                if let index = message.started, ids.indices.contains(index) { run.started.insert(index) }
                if let index = message.finished, let result = message.result, ids.indices.contains(index),
                    run.finished.insert(index).inserted
                {
                    finished(index, result)
                }
            }
        }
        guardTimer.cancel()
        try? reader.close()
        process.waitUntilExit()
        run.lastErrorLines = errorTail.lines()
        if stalled.withLock({ $0 }) {
            run.termination = .stalled(silenceLimit)
        } else {
            run.termination =
                process.terminationReason == .uncaughtSignal ? .signalled(process.terminationStatus) : .exited(process.terminationStatus)
        }
        return run
    }
}
