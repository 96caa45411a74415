import ConformanceModel
import Foundation
import NetworkCore
import Pinning

extension Catalogue {

    /// `ServerTrustEvaluator` configurations that must not be made (PIN-10, PIN-14): building the handler
    /// throws a typed error naming the problem, the expected outcome of these cases, before any stack exists
    /// or any connection is opened.
    ///
    /// They check the project's handler, not the subject, so they require no feature of it (no trust hook, no
    /// custom roots: the server is plain HTTP and never reached) and run, with the same verdict, for every
    /// subject; they stay cases so that a report shows PIN-10 and PIN-14 beside the rest of the pinning rules.
    static var pinningConfiguration: [ConformanceCase] {
        func invalid(
            _ id: String, _ title: String, rules: [String], explanation: String, error: String,
            _ policies: @escaping @Sendable (FixtureCatalogue) throws -> [ServerTrustEvaluator.PinningPolicy]
        ) -> ConformanceCase {
            ConformanceCase(
                id: "pin.configuration.\(id)", title: title, rules: rules, explanation: explanation,
                server: .plain(ok()),
                stack: StackSetup(handler: .evaluator(id, policies)),
                expected: Expectation(
                    Outcome(kind: .configurationError, configurationError: error), journal: JournalExpectation(connections: 0)))
        }
        let pinRules = ["PIN-14"]
        return [
            invalid(
                "invalid-pin.not-base64", "a pin that is not base64 is a configuration error naming it",
                rules: pinRules, explanation: "A localhost policy with the pin \"not a pin!\" beside the backup pin: invalidPins.",
                error: "PinningPolicyValidationError.invalidPins"
            ) { [try policy("localhost", ["not a pin!", try $0.backupPin()])] },
            invalid(
                "invalid-pin.short-digest", "a base64 pin of 16 bytes, not a SHA-256, is a configuration error",
                rules: pinRules, explanation: "A pin that decodes to 16 bytes (an MD5's length): invalidPins.",
                error: "PinningPolicyValidationError.invalidPins"
            ) { [try policy("localhost", ["AAAAAAAAAAAAAAAAAAAAAA==", try $0.backupPin()])] },
            invalid(
                "invalid-pin.unpadded", "an unpadded base64 pin is a configuration error",
                rules: pinRules, explanation: "The backup pin without its trailing '=': pins must be strict padded base64, so invalidPins.",
                error: "PinningPolicyValidationError.invalidPins"
            ) { [try policy("localhost", [String(try $0.backupPin().dropLast()), try $0.pin("valid-ec256", "leaf")])] },
            invalid(
                "missing-backup-pin.one-pin", "enforceBackupPin with one pin is a configuration error",
                rules: pinRules, explanation: "A policy pinning only the intermediate, with enforceBackupPin: missingBackupPin.",
                error: "PinningPolicyValidationError.missingBackupPin"
            ) { [try policy("localhost", [try $0.pin("valid-ec256", "intermediate-1")], enforceBackupPin: true)] },
            invalid(
                "missing-backup-pin.same-pin-twice", "the same pin twice is not a backup pin",
                rules: pinRules,
                explanation: "enforceBackupPin with the intermediate's pin given twice: one distinct pin, missingBackupPin.",
                error: "PinningPolicyValidationError.missingBackupPin"
            ) {
                let pin = try $0.pin("valid-ec256", "intermediate-1")
                return [try policy("localhost", [pin, pin], enforceBackupPin: true)]
            },
            invalid(
                "empty-pins", "a policy without pins is a configuration error",
                rules: pinRules, explanation: "A localhost policy with no pins at all: emptyPins.",
                error: "PinningPolicyValidationError.emptyPins"
            ) { _ in [try policy("localhost", [])] },
            invalid(
                "invalid-domain", "a domain that is not a host name is a configuration error",
                rules: pinRules, explanation: "A policy for \"bad domain\" (a space in a label): invalidDomainName.",
                error: "PinningPolicyValidationError.invalidDomainName"
            ) { [try policy("bad domain", [unknownPin, try $0.backupPin()])] },
            invalid(
                "duplicate-domain.same-spelling", "two policies for the same domain are a configuration error",
                rules: ["PIN-10"],
                explanation: "Two policies for localhost, with different pins: duplicateDomain, rather than one silently winning.",
                error: "ConfigurationValidationError.duplicateDomain"
            ) {
                [
                    try policy("localhost", [try $0.pin("valid-ec256", "leaf"), try $0.backupPin()]),
                    try policy("localhost", [unknownPin, try $0.backupPin()]),
                ]
            },
            invalid(
                "duplicate-domain.other-spelling", "API.example.test and api.example.test. are the same domain: a configuration error",
                rules: ["PIN-10", "PIN-7"],
                explanation: "Domains compare without case and without one trailing dot, so the two policies collide: duplicateDomain.",
                error: "ConfigurationValidationError.duplicateDomain"
            ) {
                [
                    try policy("API.example.test", [unknownPin, try $0.backupPin()]),
                    try policy("api.example.test.", subdomains: true, [try $0.pin("wildcard", "leaf"), try $0.backupPin()]),
                ]
            },
        ]
    }
}
