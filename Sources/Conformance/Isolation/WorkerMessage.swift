import ConformanceModel
import Foundation

/// One line a worker process writes to its parent: a case started, or a case finished with its result.
///
/// A case is named by its index in the list the parent gave the worker, so that the runs of a repeated case
/// stay apart.
struct WorkerMessage: Codable, Sendable {
    /// The index of the case that started.
    var started: Int?
    /// The index of the case that finished, with ``result``.
    var finished: Int?
    /// The finished case's result.
    var result: CaseResult?

    /// The message as one line of JSON, newline included.
    func line() throws -> Data {
        let encoder = JSONEncoder()
        encoder.nonConformingFloatEncodingStrategy = .convertToString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        return try encoder.encode(self) + Data("\n".utf8)
    }

    /// A line written by ``line()``; `nil` for anything else.
    init?(line: Data) {
        let decoder = JSONDecoder()
        decoder.nonConformingFloatDecodingStrategy = .convertFromString(positiveInfinity: "inf", negativeInfinity: "-inf", nan: "nan")
        guard let message = try? decoder.decode(WorkerMessage.self, from: line) else { return nil }
        self = message
    }

    init(started: Int) { self.started = started }

    init(finished: Int, result: CaseResult) {
        self.finished = finished
        self.result = result
    }
}
