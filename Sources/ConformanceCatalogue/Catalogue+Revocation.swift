import ConformanceModel
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore

extension Catalogue {

    /// Revocation from the data a stack is given (TRUST-13 to TRUST-15): revocation lists it holds, and the OCSP
    /// response a server staples, judged at the verification time. The chains and data are the `revocation` and
    /// `revocation-must-staple` fixture scenarios; every case needs ``SubjectFeature/revocation``, and those with a
    /// stapling policy ``SubjectFeature/stapledOCSP`` too.
    static var revocation: [ConformanceCase] {
        typealias Setup = StackSetup.Revocation
        let lists = { (files: String...) in files.map { "revocation/\($0)" } }
        return [
            revocationCase(
                "crl.not-listed", "a chain whose every certificate a current held list covers, none listed, is accepted",
                rules: ["TRUST-13"], Setup(listFiles: lists("crl-good.pem", "root-crl.pem"), listCoverage: .chain), nil),
            revocationCase(
                "crl.revoked", "a leaf a held revocation list names is refused", rules: ["TRUST-13"],
                Setup(listFiles: lists("crl-revoked.pem")), "revoked"),
            revocationCase(
                "crl.revoked.handler-accepts", "a revoked leaf is refused even when the handler trusts the server",
                rules: ["TRUST-13"], Setup(listFiles: lists("crl-revoked.pem")), "revoked", handler: .scripted(.useCredential)),
            revocationCase(
                "crl.expired", "a held revocation list past its nextUpdate is not used as proof: the chain is refused",
                rules: ["TRUST-14"], Setup(listFiles: lists("crl-expired.pem")), "invalid-revocation-data"),
            revocationCase(
                "crl.wrong-key",
                "a held list under the leaf's issuer's name that the issuer's key did not sign is not used as proof: the chain is refused",
                rules: ["TRUST-14"], Setup(listFiles: lists("crl-wrong-key.pem")), "invalid-revocation-data"),
            revocationCase(
                "crl.intermediate-revoked", "an intermediate the root's held list revokes is refused as revoked",
                rules: ["TRUST-13"], Setup(listFiles: lists("root-crl-revoked.pem")), "revoked"),
            revocationCase(
                "crl.intermediate-revoked.chain-coverage",
                "with lists held for every certificate, an intermediate the root's list revokes is refused though the leaf is not",
                rules: ["TRUST-13"], Setup(listFiles: lists("crl-good.pem", "root-crl-revoked.pem"), listCoverage: .chain), "revoked"),
            revocationCase(
                "crl.leaf-coverage.leaf-list-only",
                "a policy that requires a list for the leaf only accepts a chain whose intermediate has none",
                rules: ["TRUST-15"], Setup(listFiles: lists("crl-good.pem"), listCoverage: .leaf), nil),
            revocationCase(
                "crl.unusable.leaf-coverage",
                "a held list for the leaf that covers some reasons only does not meet a policy that requires one for the leaf",
                rules: ["TRUST-15"], Setup(listFiles: lists("crl-partial.pem"), listCoverage: .leaf), "revocation-unavailable"),
            revocationCase(
                "crl.unusable", "a held list from the leaf's issuer that covers some reasons only cannot show it unrevoked: refused",
                rules: ["TRUST-15"], Setup(listFiles: lists("crl-partial.pem")), "revocation-unavailable"),
            revocationCase(
                "crl.revoked.other-path",
                "a leaf revoked by its intermediate's list is refused on the path found after a cross-signed dead end too",
                rules: ["TRUST-13"], Setup(listFiles: ["cross-signed-revoked/crl-revoked.pem"]), "revoked", scenario: "cross-signed-revoked"
            ),
            revocationCase(
                "crl.revoked.other-path.handler-accepts",
                "a leaf revoked on the path found after a cross-signed dead end is refused even when the handler trusts the server",
                rules: ["TRUST-13"], Setup(listFiles: ["cross-signed-revoked/crl-revoked.pem"]), "revoked",
                scenario: "cross-signed-revoked",
                handler: .scripted(.useCredential)),
            revocationCase(
                "crl.missing.required", "a leaf that no held list covers is refused when the policy requires one",
                rules: ["TRUST-15"], Setup(listCoverage: .leaf), "revocation-unavailable"),
            revocationCase(
                "crl.missing.where-held", "a certificate without a held list passes when the policy checks only where a list is held",
                rules: ["TRUST-15"], Setup(listFiles: lists("root-crl.pem")), nil),
            revocationCase(
                "staple.good", "a stapled OCSP response that says good is accepted", rules: ["TRUST-13"],
                Setup(stapling: .checkedWhenStapled), nil, staple: "ocsp-good.der"),
            revocationCase(
                "staple.good.delegated", "a response signed by a responder the issuer certified for OCSP signing is accepted",
                rules: ["TRUST-14"], Setup(stapling: .checkedWhenStapled), nil, staple: "ocsp-delegated.der"),
            revocationCase(
                "staple.revoked", "a stapled OCSP response that says revoked refuses the server", rules: ["TRUST-13"],
                Setup(stapling: .checkedWhenStapled), "revoked", staple: "ocsp-revoked.der"),
            revocationCase(
                "staple.revoked.tls12", "over TLS 1.2 (CertificateStatus after the chain), a revoked staple refuses the server",
                rules: ["TRUST-13"], Setup(stapling: .checkedWhenStapled), "revoked", staple: "ocsp-revoked.der", tls12: true),
            revocationCase(
                "staple.good.tls12", "over TLS 1.2, a good staple is accepted", rules: ["TRUST-13"],
                Setup(stapling: .checkedWhenStapled), nil, staple: "ocsp-good.der", tls12: true),
            revocationCase(
                "staple.stale", "a stapled response past its nextUpdate refuses the server", rules: ["TRUST-14"],
                Setup(stapling: .checkedWhenStapled), "invalid-revocation-data", staple: "ocsp-stale.der",
                // Its nextUpdate is a minute after the fixtures were made: at 2100 it is stale whenever they were.
                at: ISO8601DateFormatter().date(from: "2100-01-01T00:00:00Z")),
            revocationCase(
                "staple.good.before-this-update",
                "a good staple judged at a verification time before its thisUpdate refuses the server, though it is fresh now",
                rules: ["TRUST-14"], Setup(stapling: .checkedWhenStapled), "invalid-revocation-data", staple: "ocsp-good.der",
                // Its thisUpdate is when the fixtures were made, years after 2020; the certificates are valid from 2020.
                at: ISO8601DateFormatter().date(from: "2020-06-01T00:00:00Z")),
            revocationCase(
                "staple.delegated-without-ocsp-signing",
                "a response signed by a responder the issuer certified without extendedKeyUsage OCSPSigning refuses the server",
                rules: ["TRUST-14"], Setup(stapling: .checkedWhenStapled), "invalid-revocation-data", staple: "ocsp-delegated-no-eku.der"),
            revocationCase(
                "staple.wrong-responder", "a response signed by a key the issuer never certified refuses the server",
                rules: ["TRUST-14"], Setup(stapling: .checkedWhenStapled), "invalid-revocation-data", staple: "ocsp-wrong-responder.der"),
            revocationCase(
                "staple.unknown", "a response that does not know the leaf refuses the server", rules: ["TRUST-15"],
                Setup(stapling: .checkedWhenStapled), "revocation-unavailable", staple: "ocsp-unknown.der"),
            revocationCase(
                "staple.missing.required", "a server that staples nothing is refused when the policy requires a staple",
                rules: ["TRUST-15"], Setup(stapling: .required), "revocation-unavailable"),
            revocationCase(
                "staple.missing.required.tls12", "over TLS 1.2, a server that staples nothing is refused when the policy requires a staple",
                rules: ["TRUST-15"], Setup(stapling: .required), "revocation-unavailable", tls12: true),
            revocationCase(
                "staple.missing.optional", "a server that staples nothing is accepted when stapling is only checked",
                rules: ["TRUST-15"], Setup(stapling: .checkedWhenStapled), nil),
            revocationCase(
                "must-staple.missing", "a must-staple leaf whose server staples nothing is refused", rules: ["TRUST-15"],
                Setup(stapling: .checkedWhenStapled), "revocation-unavailable", scenario: "revocation-must-staple"),
            revocationCase(
                "must-staple.missing.tls12", "over TLS 1.2, a must-staple leaf whose server staples nothing is refused",
                rules: ["TRUST-15"], Setup(stapling: .checkedWhenStapled), "revocation-unavailable", scenario: "revocation-must-staple",
                tls12: true),
            revocationCase(
                "must-staple.stapled", "a must-staple leaf with a good staple is accepted", rules: ["TRUST-15"],
                Setup(stapling: .checkedWhenStapled), nil, staple: "ocsp-good.der", scenario: "revocation-must-staple"),
        ]
    }

    private static func revocationCase(
        _ name: String, _ title: String, rules: [String], _ setup: StackSetup.Revocation, _ refusal: String?,
        staple: String? = nil, scenario: String = "revocation", handler: HandlerSpec? = nil, tls12: Bool = false, at time: Date? = nil
    ) -> ConformanceCase {
        var server = ServerScript(tlsScenario: scenario, responses: [ok("trusted")])
        server.stapledOCSPResponse = staple.map { "\(scenario)/\($0)" }
        if tls12 { server.tlsMaximumVersion = .tls12 }
        var requires: Set<SubjectFeature> = time == nil ? [] : [.verificationTime]
        if scenario.hasPrefix("cross-signed-") { requires.insert(.pathBuilding) }
        let policy =
            "lists \(setup.listFiles.isEmpty ? "none" : setup.listFiles.joined(separator: ", ")) (\(setup.listCoverage.rawValue)), stapling \(setup.stapling.rawValue)"
        return ConformanceCase(
            id: "trust.revocation.\(name)", title: title, rules: refusal == nil ? rules : rules + ["TRUST-3"],
            explanation: "The \(scenario) fixture chain, valid without revocation; the server staples \(staple ?? "nothing")"
                + "\(tls12 ? " over TLS 1.2" : ""). Revocation policy: \(policy)\(handler.map { ", handler \($0)" } ?? "")"
                + "\(time.map { ", verification time \(ISO8601DateFormatter().string(from: $0))" } ?? ""). "
                + (refusal.map { "The fetch fails before any request byte is sent, untrusted, with the chain failure kind \($0)." }
                    ?? "The fetch succeeds."),
            requires: requires, server: server,
            stack: StackSetup(handler: handler, verificationTime: time, revocation: setup),
            expected: refusal.map {
                Expectation(
                    Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "chain:\($0)"),
                    journal: JournalExpectation(requests: 0, noApplicationBytes: true))
            } ?? Expectation(success("trusted"), journal: .requests(1)))
    }
}
