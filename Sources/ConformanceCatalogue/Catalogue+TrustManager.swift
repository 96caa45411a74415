import ConformanceModel
import Foundation
import MockServer
import NetworkCore
import Pinning

extension Catalogue {

    /// `TrustManager` cases (family `pin.`, group `trust-manager`): each validation type and setting across
    /// the certificate catalogue, and a policy change applied to a reused connection.
    static var pinningTrustManager: [ConformanceCase] {
        validationTypes + pinKinds + pinOnly + policyChanges
    }

    private static var validationTypes: [ConformanceCase] {
        return [
            pinCase(
                "pin.trust-manager.disabled-accepts-untrusted", "a disabled policy trusts any server, even an untrusted chain",
                rules: ["TM-2"], explanation: "untrusted-root (chain to root C) under a disabled policy for localhost: accepted.",
                scenario: "untrusted-root",
                handler: .trustManager("disabled") { manager, _ in [manager.create(type: .disabled, hostName: "localhost")] },
                .accepted),
            pinCase(
                "pin.trust-manager.disabled-accepts-wrong-host", "a disabled policy trusts a certificate issued for another host",
                rules: ["TM-2"],
                explanation:
                    "wrong-host (a chain to trusted root A, for wrong.example.test only) under a disabled policy for localhost: accepted. Host-name checking is a separate step of standard validation (libcurl's VERIFYHOST beside VERIFYPEER), so a disabled policy that skips only the chain's trust passes pin.trust-manager.disabled-accepts-untrusted and refuses this one.",
                scenario: "wrong-host",
                handler: .trustManager("disabled") { manager, _ in [manager.create(type: .disabled, hostName: "localhost")] },
                .accepted),
            pinCase(
                "pin.trust-manager.standard-accepts-valid", "a standard policy trusts a valid chain",
                rules: ["TM-3"], explanation: "valid-ec256 under a standard policy: accepted.",
                handler: .trustManager("standard") { manager, _ in [manager.create(type: .standard, hostName: "localhost")] }, .accepted),
            pinCase(
                "pin.trust-manager.standard-refuses-untrusted", "a standard policy refuses an untrusted chain",
                rules: ["TM-3"], explanation: "untrusted-root under a standard policy: chainNotTrusted with the verifier's kind.",
                scenario: "untrusted-root",
                handler: .trustManager("standard") { manager, _ in [manager.create(type: .standard, hostName: "localhost")] },
                .refused("chainNotTrusted(unable-to-get-issuer)")),
            pinCase(
                "pin.trust-manager.no-policy-for-host", "a host without a policy is refused with noPolicyForHost",
                rules: ["TM-1"], explanation: "The manager has a standard policy for other.example.test only; localhost is refused.",
                handler: .trustManager("other host only") { manager, _ in [manager.create(type: .standard, hostName: "other.example.test")]
                },
                .refused("noPolicyForHost")),
            pinCase(
                "pin.trust-manager.policy-name-spelling", "a policy named LocalHost. is the policy for localhost",
                rules: ["TM-1"],
                explanation:
                    "The manager's only policy is a custom one refusing every server, created for LocalHost. (capitals, trailing dot); a request to localhost finds it, so its closure refuses the server (refused, not noPolicyForHost). A manager that files a policy under the name as written, and looks hosts up in canonical form, passes pin.trust-manager.no-policy-for-host and misses this policy.",
                handler: .trustManager("custom → false, for LocalHost.") { manager, _ in
                    let settings = ValidationSettings.defaultSettings
                    settings.customValidation = { _ in false }
                    return [manager.create(type: .custom, hostName: "LocalHost.", settings: settings)]
                }, .refused("refused")),
            pinCase(
                "pin.trust-manager.custom-accepts", "a custom closure that returns true trusts the server, even an untrusted chain",
                rules: ["TM-4"], explanation: "untrusted-root under a custom policy whose closure returns true: accepted.",
                scenario: "untrusted-root",
                handler: .trustManager("custom → true") { manager, _ in
                    let settings = ValidationSettings.defaultSettings
                    settings.customValidation = { _ in true }
                    return [manager.create(type: .custom, hostName: "localhost", settings: settings)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.custom-refuses", "a custom closure that returns false refuses a valid chain",
                rules: ["TM-4"], explanation: "valid-ec256 under a custom policy whose closure returns false: refused.",
                handler: .trustManager("custom → false") { manager, _ in
                    let settings = ValidationSettings.defaultSettings
                    settings.customValidation = { _ in false }
                    return [manager.create(type: .custom, hostName: "localhost", settings: settings)]
                }, .refused("refused")),
            pinCase(
                "pin.trust-manager.custom-without-closure", "a custom policy without a closure refuses with configurationInvalid",
                rules: ["TM-4"], explanation: "valid-ec256 under a custom policy with no closure: the configuration is invalid.",
                handler: .trustManager("custom, no closure") { manager, _ in [manager.create(type: .custom, hostName: "localhost")] },
                .refused("configurationInvalid")),
            pinCase(
                "pin.trust-manager.host-name-off-accepts-wrong-host", "sslValidateHostName = false accepts a certificate for another host",
                rules: ["TM-9"],
                explanation:
                    "wrong-host (SAN wrong.example.test, chain to root A) under a standard policy with sslValidateHostName off: the host name is the only failure, waived.",
                scenario: "wrong-host",
                handler: .trustManager("standard, sslValidateHostName=false") { manager, _ in
                    let settings = ValidationSettings.defaultSettings
                    settings.sslValidateHostName = false
                    return [manager.create(type: .standard, hostName: "localhost", settings: settings)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.host-name-on-refuses-wrong-host",
                "sslValidateHostName (the default) refuses a certificate for another host",
                rules: ["TM-9"], explanation: "wrong-host under a standard policy: hostnameMismatch.",
                scenario: "wrong-host",
                handler: .trustManager("standard") { manager, _ in [manager.create(type: .standard, hostName: "localhost")] },
                .refused("hostnameMismatch")),
            pinCase(
                "pin.trust-manager.host-name-off-still-refuses-untrusted", "sslValidateHostName = false still refuses an untrusted chain",
                rules: ["TM-9"],
                explanation:
                    "untrusted-root under a standard policy with sslValidateHostName off: only the host name is waived, never chain trust.",
                scenario: "untrusted-root",
                handler: .trustManager("standard, sslValidateHostName=false") { manager, _ in
                    let settings = ValidationSettings.defaultSettings
                    settings.sslValidateHostName = false
                    return [manager.create(type: .standard, hostName: "localhost", settings: settings)]
                }, .refused("chainNotTrusted(unable-to-get-issuer)")),
        ]
    }

    private static var pinKinds: [ConformanceCase] {
        return [
            pinCase(
                "pin.trust-manager.public-key-rotated-leaf", "pinPublicKey accepts a rotated leaf on the same key",
                rules: ["TM-5", "TM-8"],
                explanation: "rotated-leaf is a new certificate on valid-ec256's leaf key; valid-ec256/leaf.pem is pinned: the keys match.",
                scenario: "rotated-leaf",
                handler: .trustManager("pinPublicKey valid-ec256 leaf") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["valid-ec256/leaf.pem"], fixtures: fixtures)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.certificate-rotated-leaf", "pinCertificate refuses a rotated leaf: the whole certificate must match",
                rules: ["TM-6"],
                explanation: "rotated-leaf with valid-ec256/leaf.pem pinned as a certificate: the DER differs, noPinMatched.",
                scenario: "rotated-leaf",
                handler: .trustManager("pinCertificate valid-ec256 leaf") { manager, fixtures in
                    [try manager.pinning(.pinCertificate, ["valid-ec256/leaf.pem"], fixtures: fixtures)]
                }, .refused("noPinMatched")),
            pinCase(
                "pin.trust-manager.certificate-intermediate", "pinCertificate accepts the very intermediate certificate",
                rules: ["TM-6"],
                explanation: "rotated-leaf is signed by valid-ec256's intermediate, which is pinned as a certificate: accepted.",
                scenario: "rotated-leaf",
                handler: .trustManager("pinCertificate valid-ec256 intermediate") { manager, fixtures in
                    [try manager.pinning(.pinCertificate, ["valid-ec256/intermediate-1.pem"], fixtures: fixtures)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.public-key-root-not-served", "pinPublicKey matches the root the server does not send",
                rules: ["TM-5"], explanation: "valid-ec256 with roots/root-a.pem pinned: the verified chain ends at root A.",
                handler: .trustManager("pinPublicKey root A") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["roots/root-a.pem"], fixtures: fixtures)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.public-key-attacker-ca", "pinPublicKey refuses a chain to another trusted root",
                rules: ["TM-7"], explanation: "attacker-ca (root B, trusted) with root A pinned: noPinMatched.",
                scenario: "attacker-ca",
                handler: .trustManager("pinPublicKey root A") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["roots/root-a.pem"], fixtures: fixtures)]
                }, .refused("noPinMatched")),
            pinCase(
                "pin.trust-manager.public-key-no-rescue-expired", "a matching pinned key never rescues an expired leaf",
                rules: ["TM-7"],
                explanation: "expired-leaf with its own leaf pinned: standard validation still refuses (chainNotTrusted(expired)).",
                scenario: "expired-leaf",
                handler: .trustManager("pinPublicKey expired leaf") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["expired-leaf/leaf.pem"], fixtures: fixtures)]
                }, .refused("chainNotTrusted(expired)")),
            pinCase(
                "pin.trust-manager.host-name-off-pinned-wrong-host",
                "pinPublicKey with sslValidateHostName = false accepts a pinned wrong-host chain",
                rules: ["TM-9", "TM-5"],
                explanation: "wrong-host with root A pinned and sslValidateHostName off: the host name is waived, the chain and pin hold.",
                scenario: "wrong-host",
                handler: .trustManager("pinPublicKey root A, sslValidateHostName=false") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["roots/root-a.pem"], fixtures: fixtures, validateHostName: false)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.empty-directory", "a pinning policy with no certificate files refuses with configurationInvalid",
                rules: ["TM-8"], explanation: "valid-ec256 under pinPublicKey with an empty certificate directory: the policy cannot work.",
                handler: .trustManager("pinPublicKey, empty directory") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, [], fixtures: fixtures)]
                }, .refused("configurationInvalid")),
        ]
    }

    private static var pinOnly: [ConformanceCase] {
        let rules = ["TM-10"]
        return [
            pinCase(
                "pin.trust-manager.pin-only-self-signed", "certificatePinOnly accepts a self-signed leaf pinned by its own key",
                rules: rules,
                explanation:
                    "self-signed-leaf with its own certificate pinned and certificatePinOnly: chain trust is skipped, the leaf's key is pinned.",
                scenario: "self-signed-leaf",
                handler: .trustManager("pinPublicKey self-signed leaf, pin only") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["self-signed-leaf/leaf.pem"], fixtures: fixtures, pinOnly: true)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.pin-only-root-signs-expired",
                "certificatePinOnly accepts an expired leaf whose path is signed by a pinned root",
                rules: rules,
                explanation:
                    "expired-leaf with root A pinned and certificatePinOnly: dates are skipped, and root A's key verifies the intermediate's signature on the leaf's path.",
                scenario: "expired-leaf",
                handler: .trustManager("pinPublicKey root A, pin only") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["roots/root-a.pem"], fixtures: fixtures, pinOnly: true)]
                }, .accepted),
            pinCase(
                "pin.trust-manager.pin-only-merely-served",
                "certificatePinOnly refuses a pinned certificate merely present in the served list",
                rules: rules,
                explanation:
                    "attacker-with-pinned-intermediate serves valid-ec256's intermediate beside the attacker chain; it is pinned, but it signs nothing on the leaf's path: noPinMatched (GCXTrustPolicy's bypass).",
                scenario: "attacker-with-pinned-intermediate",
                handler: .trustManager("pinPublicKey valid-ec256 intermediate, pin only") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["valid-ec256/intermediate-1.pem"], fixtures: fixtures, pinOnly: true)]
                }, .refused("noPinMatched")),
        ]
    }

    /// A policy changed between two fetches on one keep-alive connection applies to the second request,
    /// which is refused before a byte of it is written. `ServerTrustEvaluator`'s configuration
    /// is immutable; the same re-check is covered for it by the reference's unit tests.
    private static var policyChanges: [ConformanceCase] {
        let rules = ["TM-11", "TRUST-6"]
        func changed(_ id: String, _ title: String, _ explanation: String, handler: HandlerSpec, reason: String) -> ConformanceCase {
            ConformanceCase(
                id: id, title: title, rules: rules, explanation: explanation, requires: [.serverTrustChallenge],
                server: .tls("valid-ec256", ok("1"), ok("2")), stack: StackSetup(handler: handler), action: .fetchReconfigureFetch,
                expected: Expectation(
                    Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:\(reason)"),
                    journal: JournalExpectation(connections: 1, requests: 1),
                    checks: [.challenges(2), .laterChallengesAreReused, .completions(2)]))
        }
        return [
            changed(
                "pin.reused.policy-removed", "a policy removed between two fetches refuses the reused connection's next request",
                "Fetch 1 succeeds under a standard policy; the policy is removed; fetch 2 reuses the connection, is checked again and refused (noPolicyForHost) before its request is written: the server reads one request.",
                handler: .reconfiguredTrustManager("standard, then removed") { manager, _ in
                    [manager.create(type: .standard, hostName: "localhost")]
                } then: { manager, _ in
                    manager.removePolicy(name: "localhost")
                },
                reason: "noPolicyForHost"),
            changed(
                "pin.reused.pin-replaced", "a pin changed between two fetches refuses the reused connection's next request",
                "Fetch 1 succeeds pinning root A; the policy is replaced by one pinning root B; fetch 2 reuses the connection and is refused (noPinMatched) before its request is written.",
                handler: .reconfiguredTrustManager("pinPublicKey root A, then root B") { manager, fixtures in
                    [try manager.pinning(.pinPublicKey, ["roots/root-a.pem"], fixtures: fixtures)]
                } then: { manager, fixtures in
                    if let policy = try? manager.pinning(.pinPublicKey, ["roots/root-b.pem"], fixtures: fixtures) {
                        manager.add(policy: policy)
                    }
                },
                reason: "noPinMatched"),
        ]
    }
}
