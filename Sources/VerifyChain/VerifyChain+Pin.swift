import ArgumentParser
import Foundation
import Pinning

extension VerifyChain {

    /// `verify-chain pin FILE…`: the pin a policy takes for a certificate or a key, as the handshake computes it.
    struct Pin: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Prints the SPKI pin of each certificate or key file, one per line.",
            discussion: """
                A file may hold a certificate (the first of a PEM bundle), a public key or an unencrypted private key, \
                PEM or DER: the pin of a spare key kept offline (a backup pin) comes from its key file. The pin is \
                base64 of the SHA-256 of the DER SubjectPublicKeyInfo, what PinningPolicy and TrustManager take.
                """)

        @Argument(help: ArgumentHelp("Certificate or key files; - reads standard input.", valueName: "file"))
        var files: [String]

        func validate() throws {
            guard !files.isEmpty else { throw ValidationError("give at least one certificate or key file") }
        }

        func run() throws {
            var failures: [SPKIPinFile.Failure] = []
            for file in files {
                do {
                    if file == "-" {
                        print(try SPKIPinFile.pin(of: FileHandle.standardInput.readDataToEndOfFile(), source: "standard input"))
                    } else {
                        print(try SPKIPinFile.pin(ofFile: file))
                    }
                } catch {
                    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
                    failures.append(error)
                }
            }
            guard !failures.isEmpty else { return }
            throw ExitCode(failures.allSatisfy(\.isMissing) ? 66 : 65)
        }
    }
}
