import Foundation
import TestTraits

/// Runs a command-line client (curl, openssl) to completion and captures its output.
enum TestProcess {
    struct Result: Sendable {
        let status: Int32
        let stdout: String
        let stderr: String
    }

    static func run(
        _ executable: String, _ arguments: [String], directory: URL? = nil, stdin: Data? = nil,
        environment: [String: String] = [:]
    ) -> Result {
        do {
            let result = try ChildProcess.run(executable, arguments, directory: directory, environment: environment, input: stdin)
            return Result(status: result.status, stdout: result.standardOutput, stderr: result.standardError)
        } catch {
            return Result(status: -1, stdout: "", stderr: "\(error)")
        }
    }
}

/// The `curl` command-line client: an HTTP client nobody on this project wrote.
enum Curl {
    struct Result: Sendable {
        /// curl's exit code (0, 52 empty reply, 56 recv failure, 18 partial file, 28 timeout, 35 TLS connect, 60 untrusted).
        let exitCode: Int32
        /// The body, followed by the `-w` status code on the last line.
        let output: String
        let stderr: String

        /// The HTTP status written by `-w '\n%{http_code}'`.
        var status: Int { Int(output.split(separator: "\n", omittingEmptySubsequences: false).last ?? "") ?? -1 }
        /// The body without the status line.
        var body: String {
            guard let newline = output.lastIndex(of: "\n") else { return "" }
            return String(output[..<newline])
        }
    }

    /// Runs `curl -sS` against `url`, with a hard `--max-time` so a server bug fails the test instead of hanging it.
    static func run(_ url: URL, _ extra: [String] = [], caFile: String? = nil, maxTime: Double = 5) -> Result {
        var arguments = ["-sS", "--max-time", String(maxTime), "-w", "\n%{http_code}"]
        if let caFile { arguments += ["--cacert", caFile, "--capath", "/nonexistent"] }
        arguments += extra
        arguments.append(url.absoluteString)
        let result = TestProcess.run("/usr/bin/curl", arguments)
        return Result(exitCode: result.status, output: result.stdout, stderr: result.stderr)
    }
}
