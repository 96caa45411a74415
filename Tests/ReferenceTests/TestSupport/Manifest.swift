import Foundation

/// `Fixtures/certs/manifest.json`, as far as tests need it.
struct Manifest: Decodable {
    struct Certificate: Decodable {
        var role: String
        var file: String
        var subject: String
        var pin: String
    }
    struct Scenario: Decodable {
        var name: String
        var kind: String
        var host: String
        var trust: [String]
        var served: String?
        var key: String?
        var expected: String
        var opensslVerifyError: Int?
        var keyPin: String?
        var certificates: [Certificate]
        var verifiedChainPins: [String]
    }
    var scenarios: [Scenario]

    static let shared: Manifest = try! JSONDecoder().decode(
        Manifest.self, from: Data(contentsOf: Fixtures.certificates.appendingPathComponent("manifest.json")))

    static func scenario(_ name: String) -> Scenario { shared.scenarios.first { $0.name == name }! }

    static var chainScenarios: [Scenario] { shared.scenarios.filter { $0.kind == "chain" } }
}
