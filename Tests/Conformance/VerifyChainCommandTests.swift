import Foundation
import TestTraits
import Testing

/// `verify-chain` as a user runs it: why a chain is refused, without a server.
@Suite("verify-chain: the stack's chain check as a command", .scaledTimeLimit(minutes: 1), .blocking)
struct VerifyChainCommandTests {
    private static let certificates = "Fixtures/certs"

    private static func run(_ arguments: [String]) throws -> BuiltExecutable.Outcome {
        try BuiltExecutable("verify-chain").run(arguments, limit: 30)
    }

    @Test("a chain to a trusted root is verified: exit 0, and the path down to the root with each SPKI pin")
    func verifiedChainPrinted() throws {
        let outcome = try Self.run([
            "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "2030-01-01T00:00:00Z",
            "\(Self.certificates)/valid-ec256/served.pem",
        ])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.hasPrefix("verified for localhost at 2030-01-01T00:00:00Z, profile strict:\n"))
        #expect(outcome.output.contains("  2: CN=Fixture Root A  (issuer CN=Fixture Root A; pin \(Self.pin("valid-ec256/root.pem")))\n"))
    }

    @Test("a refused chain exits 1 and says which rule refused it, at which depth, then lists what was served")
    func refusalExplained() throws {
        let outcome = try Self.run([
            "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "2030-01-01T00:00:00Z",
            "\(Self.certificates)/profile-ca-as-leaf/served.pem",
        ])
        #expect(outcome.status == 1)
        #expect(outcome.output.contains("refused for localhost at 2030-01-01T00:00:00Z, profile strict: ca-used-as-leaf at depth 0"))
        #expect(outcome.output.contains("served:\n  0: "))
        let compatible = try Self.run([
            "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "2030-01-01T00:00:00Z",
            "--profile", "compatible", "\(Self.certificates)/profile-ca-as-leaf/served.pem",
        ])
        #expect(compatible.status == 0, "the compatible profile accepts a CA as leaf: \(compatible.output)")
    }

    /// A pin as `verify-chain pin` prints it.
    private static func pin(_ file: String) -> String {
        (try? run(["pin", "\(certificates)/\(file)"]).output.trimmingCharacters(in: .newlines)) ?? "none"
    }

    @Test("pin prints the pin of a certificate and of a bare key, as the handshake computes it, one per line")
    func pinOfFiles() throws {
        let outcome = try Self.run(["pin", "\(Self.certificates)/valid-ec256/leaf.pem", "\(Self.certificates)/valid-ec256/leaf.key"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        let pins = outcome.output.split(separator: "\n").map(String.init)
        #expect(pins.count == 2)
        #expect(pins.first == pins.last, "a certificate and its key have one pin")
        #expect(pins.first?.count == 44)
        let notAKey = try Self.run(["pin", "README.md"])
        #expect(notAKey.status == 65)
        #expect(notAKey.errors == "Error: README.md: not a certificate, public key or unencrypted private key (PEM or DER)\n")
        let fromInput = try BuiltExecutable("verify-chain").run(
            ["pin", "-"], input: BuiltExecutable.packageRoot.appendingPathComponent("\(Self.certificates)/valid-ec256/leaf.pem"))
        #expect(fromInput.output == pins[0] + "\n", "- reads standard input")
        let missing = try Self.run(["pin", "no-such.pem"])
        #expect(missing.status == 66)
        #expect(missing.errors == "Error: no-such.pem: no such file\n")
    }

    @Test("--pin judges the pins over the verified chain: the matched certificate is marked, with sha256/ or without")
    func pinnedChainVerified() throws {
        let intermediate = Self.pin("valid-ec256/intermediate-1.pem")
        for written in [intermediate, "sha256/" + intermediate] {
            let outcome = try Self.run([
                "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "2030-01-01T00:00:00Z",
                "--pin", written, "\(Self.certificates)/valid-ec256/served.pem",
            ])
            #expect(outcome.status == 0, "\(outcome.errors)")
            #expect(
                outcome.output.hasPrefix(
                    "verified and pinned for localhost at 2030-01-01T00:00:00Z, profile strict, policy localhost (1 pin):\n"))
            #expect(outcome.output.contains("; pin \(intermediate))  <- matches a configured pin\n"))
            #expect(outcome.output.components(separatedBy: "<- matches").count == 2, "one certificate matched")
        }
    }

    @Test("--pin refuses a chain without the pin with the refusal a fetch gets, and a policy that does not cover the host")
    func pinRefusal() throws {
        let other = Self.pin("valid-rsa2048/leaf.pem")
        let outcome = try Self.run([
            "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "2030-01-01T00:00:00Z",
            "--pin", other, "--port", "8443", "\(Self.certificates)/valid-ec256/served.pem",
        ])
        #expect(outcome.status == 1)
        #expect(
            outcome.output.hasPrefix(
                "refused for localhost at 2030-01-01T00:00:00Z, profile strict: server trust refused for host localhost: noPinMatched; policy: localhost (1 pin); configured pins: [\(other)]; chain pins: [#0 "
            ))
        #expect(outcome.output.contains("no certificate of the verified chain has a configured pin; port 8443\nverified chain:\n"))
        let elsewhere = try Self.run([
            "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "2030-01-01T00:00:00Z",
            "--pin", other, "--policy", "example.test", "\(Self.certificates)/valid-ec256/served.pem",
        ])
        #expect(elsewhere.status == 1)
        #expect(elsewhere.output.contains("server trust refused for host localhost: noPolicyForHost"))
        let malformed = try Self.run([
            "--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--pin", "sha1/abc",
            "\(Self.certificates)/valid-ec256/served.pem",
        ])
        #expect(malformed.status == 64)
        #expect(malformed.errors.hasPrefix("Error: invalid pins"))
    }

    @Test("bad input is one line and a sysexits status: no roots 64, a missing file 66, a file without certificates 65")
    func badInput() throws {
        let served = "\(Self.certificates)/valid-ec256/served.pem"
        let noRoots = try Self.run(["--host", "localhost", served])
        #expect(noRoots.status == 64)
        #expect(noRoots.errors.hasPrefix("Error: give --trust FILE or --system-roots"))
        let missing = try Self.run(["--host", "localhost", "--trust", "no-such-root.pem", served])
        #expect(missing.status == 66)
        #expect(missing.errors == "Error: no such file: no-such-root.pem\n")
        let notPEM = try Self.run(["--host", "localhost", "--trust", "README.md", served])
        #expect(notPEM.status == 65)
        let badTime = try Self.run(["--host", "localhost", "--trust", "\(Self.certificates)/roots/root-a.pem", "--at", "tomorrow", served])
        #expect(badTime.status == 64)
    }
}
