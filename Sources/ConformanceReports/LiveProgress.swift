import ConformanceModel
import Foundation
import NetworkCore

/// The progress of a run on a terminal: one line, rewritten in place as cases end, with the counts so far and an
/// estimate of the time left, instead of a line per case scrolling past.
package final class LiveProgress: Sendable {
    private struct State {
        var done = 0
        var counts: [Verdict: Int] = [:]
        var lastDrawn: ContinuousClock.Instant?
    }

    private let total: Int
    private let started: ContinuousClock.Instant
    private let style: TerminalStyle
    private let write: @Sendable (String) -> Void
    private let state = Locked(State())
    /// The least time between two drawings: a terminal redrawn for each of 900 fast cases costs more than it shows.
    private let interval = Duration.milliseconds(100)

    /// A progress line for `total` cases, written with `write` (standard error, in the command).
    package init(
        total: Int, style: TerminalStyle, started: ContinuousClock.Instant = .now,
        write: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data($0.utf8)) }
    ) {
        self.total = total
        self.style = style
        self.started = started
        self.write = write
    }

    /// Counts a case's verdict and redraws the line if it is time to.
    package func record(_ verdict: Verdict, now: ContinuousClock.Instant = .now) {
        // Written under the lock: two cases ending at once must not draw their counts out of order.
        state.withLock { state in
            state.done += 1
            state.counts[verdict, default: 0] += 1
            if state.done >= total { return }
            if let last = state.lastDrawn, now - last < interval { return }
            state.lastDrawn = now
            write("\r\u{1B}[K" + Self.text(state, total: total, elapsed: now - started, style: style))
        }
    }

    /// Clears the line, once the run is over.
    package func clear() { state.withLock { _ in write("\r\u{1B}[K") } }

    /// `[ 120/958] 117 passed, 2 failed, 1 skipped · 12 s, about 80 s left`.
    private static func text(_ state: State, total: Int, elapsed: Duration, style: TerminalStyle) -> String {
        let width = String(total).count
        let done = String(repeating: " ", count: max(0, width - String(state.done).count)) + "\(state.done)"
        let failed = state.counts.filter { ![.pass, .skip].contains($0.key) }.values.reduce(0, +)
        var counts = [style.paint("\(state.counts[.pass] ?? 0) passed", as: .pass)]
        if failed > 0 { counts.append(style.paint("\(failed) not passed", as: .fail)) }
        if let skipped = state.counts[.skip] { counts.append(style.paint("\(skipped) skipped", as: .skip)) }
        let seconds = elapsed.inSeconds
        let left = seconds / Double(state.done) * Double(total - state.done)
        return "[\(done)/\(total)] \(counts.joined(separator: ", ")) · \(Int(seconds)) s, about \(Int(left.rounded(.up))) s left"
    }
}
