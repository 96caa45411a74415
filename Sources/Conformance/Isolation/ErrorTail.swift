import Foundation
import NetworkCore

/// A worker's standard error, passed on to the command's own as it comes, with its last lines kept: a Swift trap
/// writes its message there (`Fatal error: Index out of range`), and a CRASH verdict is worth little without it.
final class ErrorTail: Sendable {
    private let state = Locked((lines: [String](), partial: Data()))
    private let done = DispatchSemaphore(value: 0)
    private let keeping: Int

    private init(keeping: Int) { self.keeping = keeping }

    /// Starts reading `handle` until its end on a thread of its own.
    static func forward(_ handle: FileHandle, keeping: Int) -> ErrorTail {
        let tail = ErrorTail(keeping: keeping)
        Thread {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                FileHandle.standardError.write(chunk)
                tail.append(chunk)
            }
            try? handle.close()
            tail.done.signal()
        }.start()
        return tail
    }

    private func append(_ chunk: Data) {
        state.withLock { state in
            state.partial.append(chunk)
            while let newline = state.partial.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: state.partial[state.partial.startIndex..<newline], as: UTF8.self)
                state.partial = Data(state.partial[state.partial.index(after: newline)...])
                if Self.isWorthKeeping(line) { state.lines.append(line) }
                if state.lines.count > keeping { state.lines.removeFirst(state.lines.count - keeping) }
            }
            // A line without its end that grows past any sane length is kept as it stands.
            if state.partial.count > 4096 {
                state.lines.append(String(decoding: state.partial.prefix(4096), as: UTF8.self))
                state.partial = Data()
                if state.lines.count > keeping { state.lines.removeFirst(state.lines.count - keeping) }
            }
        }
    }

    /// Whether a line says something: not blank, and not a frame of the stack trace the runtime prints after a trap's
    /// message (`22   TrappingSubject   0x0000563f159f644b <unavailable> + 5403723`), which would push the message out.
    static func isWorthKeeping(_ line: String) -> Bool {
        let trimmed = line.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty || trimmed == "Current stack trace:" { return false }
        return trimmed.firstMatch(of: #/^\d+\s+\S+\s+0x[0-9a-f]+\s/#) == nil
    }

    /// The last lines, each escaped and bounded, once the stream ended (or after two seconds: a process the worker
    /// started may still hold it open).
    func lines() -> [String] {
        _ = done.wait(timeout: .now() + 2)
        return state.withLock { state in
            var lines = state.lines
            if !state.partial.isEmpty { lines.append(String(decoding: state.partial, as: UTF8.self)) }
            return lines.suffix(keeping).map { DisplayText.line($0, limit: 400) }
        }
    }
}
