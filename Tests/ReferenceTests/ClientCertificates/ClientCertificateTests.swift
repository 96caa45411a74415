import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import MockServer
import NetworkCore
import Reference
import TestTraits
import Testing

/// TLS client authentication through the challenge handler, against a MockServer that asks, under TLS 1.2 and 1.3.
@Suite("A server that asks for a client certificate", .scaledTimeLimit(minutes: 1), .blocking)
struct ClientCertificateTests {
    typealias Mode = MockServer.TLS.ClientAuthentication
    static let versions: [MockServer.TLS.Version] = [.tls12, .tls13]

    @Test("a required certificate is presented from the handler, with its intermediate", arguments: versions)
    func aRequiredCertificateIsPresented(version: MockServer.TLS.Version) throws {
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity("client-valid")))
        let harness = try Harness(asking: Mode.required(trusting:), version: version, handler: handler)
        harness.server.enqueue(MockResponse(body: Data("hello".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("hello".utf8), "\(String(describing: result.failure))")
        let record = try #require(harness.server.journal.first?.clientCertificate)
        #expect(record.presentedSubjects.count == 2)
        #expect(record.verifyResult == 0)
        let challenge = try #require(handler.challenges.first)
        #expect(challenge.host == "localhost" && challenge.port == harness.server.port && !challenge.isReusedConnection)
        #expect(challenge.acceptableIssuers == ["CN=Fixture Root A"])
    }

    @Test("a required certificate that is missing is clientCertificateRequired, never a lost connection", arguments: versions)
    func aMissingCertificateIsClientCertificateRequired(version: MockServer.TLS.Version) throws {
        let harness = try Harness(asking: Mode.required(trusting:), version: version, handler: nil)

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == .clientCertificateRequired, "\(String(describing: result.failure))")
        #expect(harness.server.journal.first?.requestCount == 0)
    }

    @Test(
        "a certificate the server refuses is clientCertificateRejected",
        arguments: [
            ("client-expired", "certificate_expired"), ("client-other-ca", "unknown_ca"), ("client-server-eku", "unsupported_certificate"),
        ],
        versions)
    func aRefusedCertificateIsClientCertificateRejected(scenario: (String, String), version: MockServer.TLS.Version) throws {
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity(scenario.0)))
        let harness = try Harness(asking: Mode.required(trusting:), version: version, handler: handler)

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == .clientCertificateRejected, "\(String(describing: result.failure))")
        guard case .failure(.url(let error)) = result else { return }
        #expect(error.transportFailure?.message.contains("refused the client certificate") == true)
        // The client may learn of the refusal before the server has journaled it: wait for the server's side.
        #expect(try harness.server.waitForClose(ofConnection: 0).clientCertificate?.alertSent == scenario.1)
    }

    @Test("a handler that cancels abandons the handshake: clientCertificateRequired, nothing sent", arguments: versions)
    func aHandlerThatCancelsAbandonsTheHandshake(version: MockServer.TLS.Version) throws {
        let handler = ClientChallengeRecorder(.cancelAuthenticationChallenge)
        let harness = try Harness(asking: Mode.optional(trusting:), version: version, handler: handler)

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == .clientCertificateRequired, "\(String(describing: result.failure))")
        guard case .failure(.url(let error)) = result else { return }
        #expect(error.transportFailure?.message.contains("cancelled the client-certificate challenge") == true)
        #expect(harness.server.journal.allSatisfy { $0.requestCount == 0 && $0.applicationBytesReceived == 0 })
    }

    @Test("an optional certificate may be left out", arguments: versions)
    func anOptionalCertificateMayBeLeftOut(version: MockServer.TLS.Version) throws {
        let harness = try Harness(asking: Mode.optional(trusting:), version: version, handler: nil)
        harness.server.enqueue(MockResponse(body: Data("anonymous".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("anonymous".utf8), "\(String(describing: result.failure))")
        #expect(harness.server.journal.first?.clientCertificate?.presentedSubjects == [])
    }

    @Test("a server refused by its trust check is never asked about, nor sent, a client identity", arguments: versions)
    func aRefusedServerIsNeverSentAnIdentity(version: MockServer.TLS.Version) throws {
        let refusal = ServerTrustFailure(reason: .refused, host: "localhost", detail: "pin mismatch")
        let handler = ClientChallengeRecorder(
            .useCredential(ClientIdentities.identity("client-valid")), serverTrust: .cancelAuthenticationChallenge(refusal))
        let harness = try Harness(asking: Mode.required(trusting:), version: version, handler: handler)

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == .serverCertificateUntrusted, "\(String(describing: result.failure))")
        #expect(handler.challenges.isEmpty)
        #expect(harness.server.journal.allSatisfy { ($0.clientCertificate?.presentedSubjects ?? []).isEmpty })
    }

    @Test("a reused connection carries its identity only to a fetch whose handler still chooses it")
    func aReusedConnectionCarriesItsIdentityOnlyToTheSameChoice() throws {
        let first = ClientIdentities.identity("client-valid")
        let handler = ClientChallengeRecorder(.useCredential(first))
        let harness = try Harness(asking: Mode.optional(trusting:), handler: handler)
        for _ in 0..<3 { harness.server.enqueue(MockResponse(body: Data("ok".utf8))) }

        #expect(harness.fetch(harness.resource()).success != nil)
        #expect(harness.fetch(harness.resource()).success != nil)
        handler.set(.performDefaultHandling)
        let third = harness.fetch(harness.resource())

        #expect(third.success != nil, "\(String(describing: third.failure))")
        let journal = harness.server.journal
        #expect(journal.count == 2, "the third fetch needs a connection that presented no certificate")
        #expect(journal.first?.requestCount == 2)
        #expect(journal.first?.clientCertificate?.presentedSubjects.first == first.subject)
        #expect(journal.last?.clientCertificate?.presentedSubjects == [])
        #expect(handler.challenges.map(\.isReusedConnection) == [false, true, true, false])
    }

    @Test("over HTTP/2 a required certificate is presented and a missing one refused")
    func overHTTP2() throws {
        let presenting = try Harness(
            asking: Mode.required(trusting:), handler: ClientCertificateHandler(presenting: ClientIdentities.identity("client-valid")),
            httpVersions: .http2Only)
        presenting.server.enqueue(MockResponse(body: Data("h2".utf8)))
        let missing = try Harness(asking: Mode.required(trusting:), handler: nil, httpVersions: .http2Only)

        #expect(presenting.fetch(presenting.resource()).success?.value == Data("h2".utf8))
        #expect(presenting.server.journal.first?.applicationProtocol == "h2")
        #expect(missing.fetch(missing.resource()).urlErrorCode == .clientCertificateRequired)
    }
}

/// TLS 1.3 post-handshake authentication: the server asks once the request head was read, and libcurl (which
/// offers it) answers through the same certificate callback, during the request.
extension ClientCertificateTests {
    @Test("a server asking after the handshake gets the handler's identity, asked once, during the request")
    func aServerAskingAfterTheHandshakeGetsTheHandlersIdentity() throws {
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity("client-valid")))
        let harness = try Harness(asking: Mode.postHandshake(trusting:), handler: handler, minimumVersion: .tls13)
        harness.server.enqueue(MockResponse(body: Data("after".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.success?.value == Data("after".utf8), "\(String(describing: result.failure))")
        let record = try #require(harness.server.journal.first?.clientCertificate)
        #expect(record.requestedAfterHandshake && record.presentedSubjects.count == 2)
        #expect(handler.challenges.count == 1)
        #expect(handler.challenges.first?.acceptableIssuers == ["CN=Fixture Root A"])
    }

    @Test(
        "a refusal after the handshake is clientCertificateRequired or clientCertificateRejected",
        arguments: [(nil, URLError.Code.clientCertificateRequired), ("client-other-ca", .clientCertificateRejected)])
    func aRefusalAfterTheHandshakeIsMapped(scenario: String?, code: URLError.Code) throws {
        let handler = scenario.map { ClientChallengeRecorder(.useCredential(ClientIdentities.identity($0))) }
        let harness = try Harness(asking: Mode.postHandshake(trusting:), handler: handler, minimumVersion: .tls13)
        harness.server.enqueue(MockResponse(body: Data("never".utf8)))

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == code, "\(String(describing: result.failure))")
        #expect(try harness.server.waitForClose(ofConnection: 0).requestCount == 1)
    }

    @Test("a redirect onto a pooled connection that presented another identity fails, and never sends the POST again")
    func aRedirectOntoAnotherIdentityFailsWithoutReplayingThePost() throws {
        let handler = ClientChallengeRecorder(.useCredential(ClientIdentities.identity("client-valid")))
        let target = try Harness(asking: Mode.optional(trusting:), handler: handler)
        var tls = MockServer.TLS(identity: Fixtures.identity("valid-ec256"))
        tls.clientAuthentication = .optional(trusting: Fixtures.path("roots/root-a.pem"))
        let origin = try MockServer(tls: tls)
        target.server.enqueue(MockResponse(body: Data("pooled".utf8)))
        origin.enqueue(MockResponse(status: 303, headers: ["Location": target.server.url("/result").absoluteString]))

        // The target's connection is pooled having presented the identity; then the handler chooses none.
        #expect(target.fetch(target.resource()).success != nil)
        handler.set(.performDefaultHandling)
        var post = URLRequest(url: origin.url("/order"))
        post.httpMethod = "POST"
        post.httpBody = Data("pay once".utf8)
        let made = post
        let result = target.fetch(
            Network.URLSessionResource(baseRequestMaking: .init { $0(.success(made)) }, errorDecoding: .dummy, interceptors: []))

        #expect(result.urlErrorCode == .secureConnectionFailed, "\(String(describing: result.failure))")
        #expect(origin.journal.reduce(0) { $0 + $1.requestCount } == 1, "the POST went out once")
        #expect(target.server.journal.reduce(0) { $0 + $1.requestCount } == 1, "nothing reached the target on the old connection")
    }

    @Test("an identity OpenSSL refuses to use is secureConnectionFailed with its reason, not a refusal by the server")
    func anUnusableIdentityIsTheClientsFailure() throws {
        let valid = ClientIdentities.identity("client-valid")
        // The leaf of one identity with the key of another: the loaders refuse it, so it is built as a
        // third-party loader might hand it over.
        let mismatched = ClientIdentity(
            certificateChain: valid.certificateChain, privateKey: ClientIdentities.identity("client-other-ca").privateKey,
            subject: valid.subject, notAfter: valid.notAfter)
        let harness = try Harness(asking: Mode.required(trusting:), handler: ClientChallengeRecorder(.useCredential(mismatched)))

        let result = harness.fetch(harness.resource())

        #expect(result.urlErrorCode == .secureConnectionFailed, "\(String(describing: result.failure))")
        guard case .failure(.url(let error)) = result else { return }
        #expect(error.transportFailure?.message.contains("could not present the client identity") == true)
    }
}
