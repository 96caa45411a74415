import Foundation
import MockServer

/// The main package's certificate catalogue (`Fixtures/certs`): files, and the pins `manifest.json` records.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/certs").path

    static func path(_ relative: String) -> String { "\(directory)/\(relative)" }

    /// The server identity of a scenario: its served chain and the leaf's key.
    static func identity(_ scenario: String) -> MockServer.TLS.Identity {
        .init(chainFile: path("\(scenario)/served.pem"), keyFile: path("\(scenario)/leaf.key"))
    }

    /// The pin of a scenario's certificate in a role (`leaf`, `intermediate-1`, `root`), or of its spare key (`key`).
    static func pin(_ scenario: String, role: String) throws -> String {
        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path("manifest.json"))))
        let scenarios = (manifest as? [String: Any])?["scenarios"] as? [[String: Any]] ?? []
        guard let entry = scenarios.first(where: { $0["name"] as? String == scenario }) else { throw Missing(what: scenario) }
        if role == "key", let pin = entry["keyPin"] as? String { return pin }
        let certificates = entry["certificates"] as? [[String: Any]] ?? []
        guard let pin = certificates.first(where: { $0["role"] as? String == role })?["pin"] as? String else {
            throw Missing(what: "\(scenario) \(role)")
        }
        return pin
    }

    struct Missing: Error, CustomStringConvertible {
        let what: String
        var description: String { "no \(what) in Fixtures/certs/manifest.json" }
    }
}
