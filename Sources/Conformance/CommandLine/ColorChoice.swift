import ArgumentParser
import Foundation

/// `--color auto|always|never`: whether the terminal's verdicts are coloured. `auto`, the default, colours what goes
/// to a terminal, unless `NO_COLOR` is set to anything but the empty string (no-color.org).
public enum ColorChoice: String, CaseIterable, Sendable, ExpressibleByArgument {
    /// Colour on a terminal, unless `NO_COLOR` says not to.
    case auto
    /// Colour, wherever the text goes.
    case always
    /// No colour.
    case never

    /// Whether text written to the file descriptor `descriptor` is coloured, with this environment.
    public func colors(descriptor: Int32, environment: [String: String] = ProcessInfo.processInfo.environment) -> Bool {
        switch self {
        case .always: true
        case .never: false
        case .auto: (environment["NO_COLOR"] ?? "").isEmpty && isatty(descriptor) == 1
        }
    }
}
