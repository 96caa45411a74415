import ArgumentParser
import Foundation
import Pinning
import Reference

/// `verify-chain`: the stack's standard validation of one served chain (``ChainVerifier``) and its pins, without a
/// server, so that a user can ask why a chain is refused; `verify-chain pin` prints the pin of a certificate or key.
@main
struct VerifyChain: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify-chain",
        abstract: "Validates a certificate chain for a host, and its pins, as the reference stack's handshake does.",
        discussion: """
            Without a subcommand, `verify` runs: `verify-chain --host H --trust root.pem served.pem`. Pins are \
            written as the library takes them: base64 of the SHA-256 of a DER SubjectPublicKeyInfo, `sha256/` before \
            it or not; this command prints them bare. Exit status: 0 when the chain is verified (and pinned, with \
            --pin), 1 when it is refused, 64 for a usage error, 65 for a file that holds no certificate or key, 66 \
            for a missing file.
            """,
        subcommands: [Verify.self, Pin.self], defaultSubcommand: Verify.self)

    /// A failure with its sysexits status, printed as one line.
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        let message: String
        var description: String { message }
    }

    static func main() {
        do {
            var command = try parseAsRoot()
            try command.run()
        } catch let failure as Failure {
            FileHandle.standardError.write(Data("Error: \(failure.message)\n".utf8))
            Foundation.exit(failure.status)
        } catch {
            exit(withError: error)
        }
    }
}
