import Foundation
import TestTraits
import Testing

/// `verify-chain` as a user runs it: why a chain is refused, without a server.
@Suite("verify-chain: the stack's chain check as a command", .timeLimit(.minutes(1)), .blocking)
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
        #expect(outcome.output.contains("  2: CN=Fixture Root A  (issuer CN=Fixture Root A; SPKI sha256/"))
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
