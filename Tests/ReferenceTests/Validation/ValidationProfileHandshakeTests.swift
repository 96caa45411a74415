import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import Reference
import TestTraits
import Testing

/// A server serving a profile scenario's chain under the scenario's host name, and a stack trusting the
/// scenario's roots at the scenario's verification time.
private struct ProfileHarness {
    let server: MockServer
    let stack: Network.URLSessionNetworkStack
    let url: URL

    /// A server for a profile scenario and a stack that trusts its roots, named public (the manifest's verdicts are
    /// for public roots) unless `publicRoots` is `false`.
    init(
        _ name: String, profile: ValidationProfile, handler: (any AuthenticationChallengeHandler)? = nil, host: String? = nil,
        publicRoots: Bool = true
    ) throws {
        let scenario = ProfileScenario.named(name)
        let host = host ?? scenario.host!
        var tls = MockServer.TLS(identity: .init(chainFile: Fixtures.path(scenario.served!), keyFile: Fixtures.path("\(name)/leaf.key")))
        tls.servesWeakChains = true  // profile scenarios are weak on purpose (profile-key-p192)
        server = try MockServer(tls: tls)
        var configuration = Network.URLSessionNetworkStack.Configuration()
        configuration.trustRoots = try .only(pemFiles: (scenario.trust ?? []).map(Fixtures.path), public: publicRoots)
        configuration.resolveOverrides = [.init(host: host, port: server.port, address: "127.0.0.1")]
        configuration.verificationTime = scenario.time
        configuration.validationProfile = profile
        stack = Network.URLSessionNetworkStack(configuration: configuration, authenticationChallengeHandler: handler, retryQueue: .global())
        var components = URLComponents(url: server.url(), resolvingAgainstBaseURL: false)!
        components.host = host
        url = components.url!
    }

    func fetch() -> Result<Network.Value<Data, URLResponse>, Network.URLSessionError> {
        let recorder = Recorder<Result<Network.Value<Data, URLResponse>, Network.URLSessionError>>()
        let request = URLRequest(url: url)
        stack.fetch(resource: .init(baseRequestMaking: .init { $0(.success(request)) })) { recorder.record($0) }
        return recorder.next()!
    }
}

@Suite("The handshake applies the validation profile", .scaledTimeLimit(minutes: 1), .blocking)
struct ValidationProfileHandshakeTests {

    /// Scenarios the strict profile refuses over a real handshake (those whose keys OpenSSL's TLS security
    /// level already refuses are left to the unit tests), and the reason.
    static let refused: [(String, ChainValidationFailure.Kind)] = [
        ("profile-nc-wildcard-bypass", .nameConstraintViolation),
        ("profile-ca-as-leaf", .caUsedAsLeaf),
        ("profile-public-suffix-wildcard", .publicSuffixWildcard),
        ("profile-san-underscore", .malformedName),
        ("profile-serial-negative", .invalidSerialNumber),
        ("profile-eku-server-and-any", .extendedKeyUsage),
        ("profile-cn-ipv6-not-canonical", .commonNameNotInSubjectAltName),
        ("profile-nc-not-critical", .invalidConstraints),
        ("profile-strict-leaf-no-aki", .strictProfile),
        ("profile-empty-issuer-name", .strictProfile),
    ]

    @Test(
        "strict refuses with serverCertificateUntrusted and the typed reason, and the server receives no request byte",
        arguments: refused.map(\.0))
    func strictRefusesBeforeAnyRequestByte(name: String) throws {
        let kind = Self.refused.first { $0.0 == name }!.1
        let harness = try ProfileHarness(name, profile: .strict)
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        guard case .url(let error)? = harness.fetch().failure else { Issue.record("expected a URL error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        let failure = try #require(error.transportFailure?.chainValidationFailure, "\(error)")
        #expect(failure.kind == kind, "\(failure)")
        #expect(failure.depth == ProfileScenario.named(name).verdict(.strict).depth, "\(failure)")
        _ = try harness.server.waitForClose(ofConnection: 0)
        #expect(harness.server.journal.allSatisfy { $0.applicationBytesReceived == 0 && $0.requestCount == 0 })
    }

    @Test("over a real handshake, strict accepts a private root's chain whose commonName is outside its subjectAltName")
    func privateRootChainWithOtherCommonNameAccepted() throws {
        let harness = try ProfileHarness("profile-cn-not-in-san", profile: .strict, publicRoots: false)
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(try harness.fetch().get().value == Data("ok".utf8))
    }

    static let profileScenarios = ProfileScenario.all.filter { $0.kind == "profile" }.map(\.name)

    @Test(
        "over a real handshake, every profile scenario gets the manifest's verdict and depth under each profile",
        arguments: profileScenarios)
    func handshakeVerdictsMatchManifest(name: String) throws {
        for profile in [ValidationProfile.strict, .compatible] {
            let verdict = ProfileScenario.named(name).verdict(profile)
            let harness = try ProfileHarness(name, profile: profile)
            harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
            switch harness.fetch() {
            case .success:
                #expect(verdict.expected == "valid", "\(profile) accepted")
            case .failure(.url(let error)):
                let failure = error.transportFailure?.chainValidationFailure
                #expect(failure?.kind.rawValue == verdict.expected, "\(profile): \(error)")
                #expect(failure?.depth == verdict.depth, "\(profile): \(error)")
            case .failure(let error):
                Issue.record("\(profile): \(error)")
            }
        }
    }

    @Test(
        "compatible accepts what only the strict profile refuses",
        arguments: refused.map(\.0).filter { $0 != "profile-empty-issuer-name" })
    func compatibleAccepts(name: String) throws {
        let harness = try ProfileHarness(name, profile: .compatible)
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let result = harness.fetch()
        #expect(result.success != nil, "\(result)")
    }

    @Test("a handler is asked with the profile's refusal, and its default handling refuses")
    func handlerSeesProfileRefusal() throws {
        let handler = ScriptedHandler(.performDefaultHandling)
        let harness = try ProfileHarness("profile-nc-wildcard-bypass", profile: .strict, handler: handler)
        guard case .url(let error)? = harness.fetch().failure else { Issue.record("expected a URL error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        let challenge = try #require(handler.challenges.first)
        #expect(challenge.validationProfile == .strict)
        guard case .failure(let failure) = challenge.standardValidation else { Issue.record("expected a refusal"); return }
        #expect(failure.kind == .nameConstraintViolation)
        #expect(failure.rule == .nameConstraintsOnHost)
        #expect(challenge.verifiedChain.isEmpty)
    }

    @Test("a profile refusal outranks a host-name mismatch, so a handler waiving the host check still sees it")
    func profileRefusalOutranksHostMismatch() throws {
        let handler = ScriptedHandler(.performDefaultHandling)
        let harness = try ProfileHarness("profile-ca-as-leaf", profile: .strict, handler: handler, host: "other.example.test")
        guard case .url(let error)? = harness.fetch().failure else { Issue.record("expected a URL error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        let challenge = try #require(handler.challenges.first)
        guard case .failure(let failure) = challenge.standardValidation else { Issue.record("expected a refusal"); return }
        #expect(failure.kind == .caUsedAsLeaf)
    }

    @Test("a handler may still trust a chain the profile refused")
    func handlerMayOverrule() throws {
        let handler = ScriptedHandler(.useCredential)
        let harness = try ProfileHarness("profile-ca-as-leaf", profile: .strict, handler: handler)
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(harness.fetch().success != nil)
    }

    @Test("the stack accepts a certificate at exactly its notAfter, and refuses it one second later")
    func notAfterIsInclusiveInTheHandshake() throws {
        let atNotAfter = try ProfileHarness("profile-valid-at-not-after", profile: .strict)
        atNotAfter.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        #expect(atNotAfter.fetch().success != nil)
        let after = try ProfileHarness("profile-expired-after-not-after", profile: .strict)
        guard case .url(let error)? = after.fetch().failure else { Issue.record("expected a URL error"); return }
        #expect(error.code == .serverCertificateHasBadDate)
    }

    @Test("a chain deeper than maximumChainDepth is refused as chainTooDeep")
    func maximumChainDepthRefuses() throws {
        let harness = try Harness(scenario: "valid-two-intermediates") { $0.maximumChainDepth = 2 }
        guard case .url(let error)? = harness.fetch(harness.resource()).failure else { Issue.record("expected a URL error"); return }
        #expect(error.code == .serverCertificateUntrusted)
        #expect(error.transportFailure?.chainValidationFailure?.kind == .chainTooDeep)
        #expect(error.transportFailure?.chainValidationFailure?.depth == 3)
    }
}

extension ValidationProfileHandshakeTests {
    @Test("compatible accepts a chain whose issuer name is empty: the verdict comes from validation alone")
    func emptyIssuerNameAcceptedByCompatible() throws {
        let harness = try ProfileHarness("profile-empty-issuer-name", profile: .compatible)
        harness.server.enqueue(MockResponse(status: 200, body: Data("ok".utf8)))
        let result = harness.fetch()
        #expect(result.success != nil, "\(result)")
    }
}
