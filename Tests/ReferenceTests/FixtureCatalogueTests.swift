import Conformance
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

/// Runs a command and returns its standard output.
private func run(_ command: String) throws -> String {
    try ChildProcess.run("/bin/sh", ["-c", command]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
}

/// The URLError code standard validation gives for a manifest's expected outcome.
private func expectedCode(_ expected: String) -> URLError.Code? {
    switch expected {
    case "valid": return nil
    case "expired": return .serverCertificateHasBadDate
    case "not-yet-valid": return .serverCertificateNotYetValid
    default: return .serverCertificateUntrusted
    }
}

@Suite("The certificate catalogue", .scaledTimeLimit(minutes: 2), .blocking)
struct FixtureCatalogueTests {

    static let chainScenarios = Fixtures.catalogue.scenarios.filter { $0.kind == "chain" }
    static let certificates = chainScenarios.flatMap { scenario in (scenario.certificates ?? []).map { (scenario.name, $0) } }

    @Test(
        "every pin agrees three ways: the stack's own computation, the documented openssl pipeline (docs/pinning.md), the manifest",
        arguments: certificates.map { "\($0.0)/\($0.1.role)" })
    func pinsAgree(certificate: String) throws {
        let (scenario, entry) = Self.certificates.first { "\($0.0)/\($0.1.role)" == certificate }!
        let path = Fixtures.path(entry.file)
        let swift = try ServerCertificate.certificates(pemFile: path).first?.spkiSHA256
        let pipeline = try run(
            "openssl x509 -in '\(path)' -pubkey -noout | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary | openssl enc -base64"
        )
        #expect(swift == entry.pin, "\(scenario)")
        #expect(pipeline == entry.pin, "\(scenario)")
    }

    static let servable = chainScenarios

    @Test(
        "the stack, trusting the scenario's roots, gets the expected standard-validation outcome",
        arguments: servable.map(\.name))
    func stackOutcome(name: String) throws {
        let scenario = try #require(Fixtures.catalogue.scenario(name))
        let server = try MockServer(
            tls: .init(identity: .init(chainFile: Fixtures.path(scenario.served!), keyFile: Fixtures.path(scenario.key!))))
        server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        var configuration = Network.URLSessionNetworkStack.Configuration()
        let host = try #require(scenario.host)
        configuration.trustRoots = try .only(pemFiles: (scenario.trust ?? []).map(Fixtures.path))
        configuration.resolveOverrides = [.init(host: host, port: server.port, address: "127.0.0.1")]
        let stack = Network.URLSessionNetworkStack(configuration: configuration, retryQueue: .global())
        var url = URLComponents(url: server.url(), resolvingAgainstBaseURL: false)!
        url.host = host
        let request = URLRequest(url: url.url!)
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        stack.fetch(resource: .init(baseRequestMaking: .init { $0(.success(request)) })) { recorder.record($0) }
        let result = try #require(recorder.next())
        switch (expectedCode(scenario.expected), result) {
        case (nil, .success):
            break
        case (let code?, .failure(.url(let error))):
            #expect(error.code == code, "\(error.transportFailure.map(String.init(describing:)) ?? "")")
        default:
            Issue.record("expected \(scenario.expected), got \(result)")
        }
    }
}

/// Apart from the rest of the catalogue's tests for its time limit alone: `Scripts/check-fixtures` runs openssl a
/// few hundred times, about 40 s on an idle 2-core machine and twice that when the machine is busy.
@Suite("The certificate catalogue, as openssl sees it", .scaledTimeLimit(minutes: 4), .blocking)
struct FixtureCatalogueOpenSSLTests {

    @Test("openssl verify gives each scenario the manifest's expected outcome")
    func opensslVerifyAgrees() throws {
        let root = Fixtures.certificates.deletingLastPathComponent().deletingLastPathComponent()
        let output = try run("'\(root.path)/Scripts/check-fixtures' 2>&1 | tail -1")
        #expect(output.hasSuffix(" 0 failed"), "\(output)")
    }
}
