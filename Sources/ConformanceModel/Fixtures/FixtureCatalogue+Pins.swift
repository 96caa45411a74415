extension FixtureCatalogue {

    /// The pin of a scenario's certificate with this role (`leaf`, `intermediate-1`, `root`, `extra`).
    ///
    /// - Throws: ``MissingPin`` when the manifest has no such scenario or certificate (an ERROR verdict).
    package func pin(_ scenario: String, _ role: String) throws -> String {
        guard let pin = self.scenario(scenario)?.pin(role) else { throw MissingPin(scenario: scenario, role: role) }
        return pin
    }

    /// The pin of the spare key kept out of every chain (`backup-key`), the backup pin of RFC 7469 §4.3.
    ///
    /// - Throws: ``MissingPin`` when the manifest has no `backup-key` scenario.
    package func backupPin() throws -> String {
        guard let pin = scenario("backup-key")?.keyPin else { throw MissingPin(scenario: "backup-key", role: "keyPin") }
        return pin
    }
}

/// A pin the fixture manifest does not have.
package struct MissingPin: Error, CustomStringConvertible {
    /// The scenario asked for.
    package let scenario: String
    /// The certificate role asked for.
    package let role: String
    package var description: String { "Fixtures/certs/manifest.json has no pin for \(scenario) \(role)" }

    package init(scenario: String, role: String) {
        self.scenario = scenario
        self.role = role
    }
}
