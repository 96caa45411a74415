import ConformanceCatalogue
import ConformanceModel
import Foundation
import NetworkCore

/// The worker side of the command line's process isolation: runs the case IDs read from standard input, one a
/// line, and reports each start and each result to the parent as a ``WorkerMessage`` line, written as it
/// happens so that the parent knows which cases were running if the subject takes the process down.
enum ConformanceWorker {

    /// The hidden flag that makes the command a worker.
    static let flag = "conformance-worker"

    /// Runs the worker; returns its exit status.
    static func run<Subject: ConformanceSubject>(_ subject: Subject, jobs: Int, watchdog: Double) throws -> Int32 {
        // The messages keep the real standard output; anything the subject prints goes to standard error, where
        // it cannot be taken for a message.
        let channel = dup(STDOUT_FILENO)
        guard channel >= 0, dup2(STDERR_FILENO, STDOUT_FILENO) >= 0 else { throw WorkerFailure("cannot set up the output channel") }
        let input = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        let catalogue = Dictionary(Catalogue.all.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        let cases = try input.split(separator: "\n").map { id in
            guard let testCase = catalogue[String(id)] else { throw WorkerFailure("no case \(id)") }
            return testCase
        }
        let writer = Locked(channel)
        @Sendable func send(_ message: WorkerMessage) {
            guard let line = try? message.line() else { return }
            writer.withLock { fd in
                line.withUnsafeBytes { bytes in
                    var offset = 0
                    while offset < bytes.count {
                        let written = write(fd, bytes.baseAddress! + offset, bytes.count - offset)
                        if written < 0 && errno == EINTR { continue }
                        guard written > 0 else { return }
                        offset += written
                    }
                }
            }
        }
        let runner = try ConformanceRunner(subject: subject, concurrency: jobs, watchdog: watchdog)
        _ = runner.runOnce(
            cases, started: { send(WorkerMessage(started: $0)) }, finished: { send(WorkerMessage(finished: $0, result: $1)) },
            progress: { _, _, _ in })
        return 0
    }
}

struct WorkerFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
