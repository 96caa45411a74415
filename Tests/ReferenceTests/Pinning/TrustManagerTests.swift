import Foundation
import MockServer
import Reference
import Testing

/// A fresh directory holding copies of catalogue files, as a policy's certificate directory.
func pinDirectory(_ files: [String]) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pins-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    for (index, file) in files.enumerated() {
        try FileManager.default.copyItem(
            at: URL(fileURLWithPath: Fixtures.path(file)),
            to: directory.appendingPathComponent("\(index)-\(URL(fileURLWithPath: file).lastPathComponent)"))
    }
    return directory
}

extension PinningTests {

    @Suite("TrustManager policies over real TLS")
    struct TrustManagerPolicies {

        func manager(
            _ type: ValidationType, host: String = "localhost", pins: [String] = [],
            configure: (ValidationSettings) -> Void = { _ in }
        ) throws -> TrustManager {
            let manager = TrustManager()
            let settings = ValidationSettings.defaultSettings
            if !pins.isEmpty { settings.certificateDirectory = try pinDirectory(pins) }
            configure(settings)
            manager.add(policies: [manager.create(type: type, hostName: host, settings: settings)])
            return manager
        }

        @Test("disabled trusts any server, even a self-signed one")
        func disabled() throws {
            let harness = try PinHarness(scenario: "self-signed-leaf", handler: manager(.disabled))
            #expect(harness.fetch().success != nil)
        }

        @Test("standard trusts a valid chain and refuses a wrong host and an expired leaf")
        func standard() throws {
            #expect(try PinHarness(handler: manager(.standard)).fetch().success != nil)
            #expect(
                try PinHarness(scenario: "wrong-host", handler: manager(.standard)).fetch().serverTrustFailure?.reason == .hostnameMismatch)
            let expired = try PinHarness(scenario: "expired-leaf", handler: manager(.standard)).fetch().serverTrustFailure
            #expect(expired?.reason.chainValidationFailure?.kind == .expired)
        }

        @Test("sslValidateHostName off accepts another host's certificate, and nothing else")
        func hostNameCheckOff() throws {
            let off: (ValidationSettings) -> Void = { $0.sslValidateHostName = false }
            #expect(try PinHarness(scenario: "wrong-host", handler: manager(.standard, configure: off)).fetch().success != nil)
            #expect(try PinHarness(scenario: "expired-leaf", handler: manager(.standard, configure: off)).fetch().serverTrustFailure != nil)
            #expect(
                try PinHarness(scenario: "untrusted-root", handler: manager(.standard, configure: off)).fetch().serverTrustFailure != nil)
            let pinned = try manager(.pinPublicKey, pins: ["wrong-host/leaf.pem"], configure: off)
            #expect(try PinHarness(scenario: "wrong-host", handler: pinned).fetch().success != nil)
        }

        @Test("custom asks the closure, with the challenge")
        func custom() throws {
            let accepting = try manager(.custom) { settings in settings.customValidation = { $0.verifiedChain.count == 3 } }
            #expect(try PinHarness(handler: accepting).fetch().success != nil)
            let refusing = try manager(.custom) { $0.customValidation = { _ in false } }
            #expect(try PinHarness(handler: refusing).fetch().serverTrustFailure?.reason == .refused)
        }

        @Test("custom without a closure refuses as a configuration error")
        func customWithoutClosure() throws {
            let manager = try manager(.custom)
            #expect(manager.policy(for: "localhost")?.configurationProblem != nil)
            #expect(try PinHarness(handler: manager).fetch().serverTrustFailure?.reason == .configurationInvalid)
        }

        @Test("pinCertificate accepts a pinned intermediate, and a pinned root the server does not send")
        func pinCertificate() throws {
            #expect(try PinHarness(handler: manager(.pinCertificate, pins: ["valid-ec256/intermediate-1.pem"])).fetch().success != nil)
            #expect(try PinHarness(handler: manager(.pinCertificate, pins: ["roots/root-a.pem"])).fetch().success != nil)
            let refused = try PinHarness(handler: manager(.pinCertificate, pins: ["roots/root-b.pem"])).fetch()
            #expect(refused.serverTrustFailure?.reason == .noPinMatched)
        }

        @Test("pinCertificate compares whole certificates: a rotated leaf on the same key is refused, pinPublicKey accepts it")
        func certificateVersusKey() throws {
            let byCertificate = try PinHarness(scenario: "rotated-leaf", handler: manager(.pinCertificate, pins: ["valid-ec256/leaf.pem"]))
            #expect(byCertificate.fetch().serverTrustFailure?.reason == .noPinMatched)
            let byKey = try PinHarness(scenario: "rotated-leaf", handler: manager(.pinPublicKey, pins: ["valid-ec256/leaf.pem"]))
            #expect(byKey.fetch().success != nil)
        }

        @Test("pinPublicKey matches only the verified chain: a pinned intermediate appended to an attacker chain is refused")
        func pinPublicKeyAttacker() throws {
            let harness = try PinHarness(
                scenario: "attacker-with-pinned-intermediate", roots: ["roots/root-a.pem", "roots/root-b.pem"],
                handler: manager(.pinPublicKey, pins: ["valid-ec256/intermediate-1.pem"]))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPinMatched)
            #expect(harness.applicationBytes == 0)
        }

        @Test("pin-only mode accepts a pinned self-signed or expired leaf, and a chain signed by a pinned untrusted root")
        func pinOnlyAccepts() throws {
            let pinOnly: (ValidationSettings) -> Void = { $0.certificatePinOnly = true }
            #expect(
                try PinHarness(
                    scenario: "self-signed-leaf", handler: manager(.pinPublicKey, pins: ["self-signed-leaf/leaf.pem"], configure: pinOnly)
                ).fetch().success != nil)
            #expect(
                try PinHarness(
                    scenario: "expired-leaf", handler: manager(.pinCertificate, pins: ["expired-leaf/leaf.pem"], configure: pinOnly)
                ).fetch().success != nil)
            #expect(
                try PinHarness(scenario: "untrusted-root", handler: manager(.pinPublicKey, pins: ["roots/root-c.pem"], configure: pinOnly))
                    .fetch().success != nil)
        }

        @Test("pin-only mode never passes a pinned certificate merely present in the served list")
        func pinOnlyMerelyPresent() throws {
            let pinOnly: (ValidationSettings) -> Void = { $0.certificatePinOnly = true }
            for type in [ValidationType.pinCertificate, .pinPublicKey] {
                let harness = try PinHarness(
                    scenario: "attacker-with-pinned-intermediate", roots: ["roots/root-a.pem", "roots/root-b.pem"],
                    handler: manager(type, pins: ["valid-ec256/intermediate-1.pem"], configure: pinOnly))
                #expect(harness.fetch().serverTrustFailure?.reason == .noPinMatched, "\(type)")
                #expect(harness.applicationBytes == 0)
            }
            let extra = try PinHarness(
                scenario: "extra-unrelated-cert",
                handler: manager(.pinPublicKey, pins: ["attacker-ca/intermediate-1.pem"], configure: pinOnly))
            #expect(extra.fetch().serverTrustFailure?.reason == .noPinMatched)
        }

        @Test("a pinning policy without usable certificates refuses as a configuration error")
        func noCertificates() throws {
            let manager = try manager(.pinPublicKey)
            #expect(manager.policy(for: "localhost")?.configurationProblem?.contains("no certificate directory") == true)
            #expect(try PinHarness(handler: manager).fetch().serverTrustFailure?.reason == .configurationInvalid)
        }

        @Test("a host without a policy is refused")
        func noPolicy() throws {
            let harness = try PinHarness(handler: manager(.disabled, host: "other.test"))
            #expect(harness.fetch().serverTrustFailure?.reason == .noPolicyForHost)
        }

        @Test("a policy under a URL instead of a host name says it can never match, and the refusal names it")
        func urlAsHostName() throws {
            let manager = try manager(.standard, host: "https://localhost/")
            #expect(
                manager.allPolicies.first?.configurationProblem
                    == "the host name \"https://localhost/\" can never match a request: it contains a URL scheme; give the host name alone")
            let failure = try #require(try PinHarness(handler: manager).fetch().serverTrustFailure)
            #expect(failure.reason == .noPolicyForHost)
            #expect(failure.detail?.contains("policies no request can match: the host name \"https://localhost/\"") == true)
        }

        @Test("a single-label host name is a host name: an internal service's short name has no problem")
        func singleLabelHost() throws {
            #expect(try manager(.standard, host: "payments").allPolicies.first?.configurationProblem == nil)
        }

        @Test("policies are found case-insensitively, ignoring one trailing dot, and can be listed and removed")
        func management() throws {
            let manager = TrustManager()
            manager.add(policies: [
                manager.create(type: .standard, hostName: "API.Example.Test."), manager.create(type: .disabled, hostName: "b.test"),
            ])
            #expect(manager.policy(for: "api.example.test")?.type == .standard)
            #expect(manager.policy(for: "API.EXAMPLE.TEST.")?.type == .standard)
            #expect(manager.policy(for: "x.api.example.test") == nil)
            #expect(manager.allNames == ["api.example.test", "b.test"])
            manager.removePolicy(name: "b.test")
            #expect(manager.allPolicies.map(\.hostName) == ["api.example.test"])
        }
    }
}
