import Foundation
import TestTraits

/// The `openssl` command-line tool (a system package the fixtures already need), for what the tests read or make
/// with it.
enum OpenSSLCommand {
    struct Failed: Error, CustomStringConvertible {
        let arguments: [String]
        let status: Int32
        var description: String { "openssl \(arguments.joined(separator: " ")) exited with \(status)" }
    }

    /// Runs `openssl` and returns what it printed on standard output.
    @discardableResult
    static func run(_ arguments: [String]) throws -> String {
        let result = try ChildProcess.run("/usr/bin/openssl", arguments)
        guard result.status == 0 else { throw Failed(arguments: arguments, status: result.status) }
        return result.standardOutput
    }
}
