import ConformanceModel
import Foundation
import MockServer
import NetworkCore

extension Catalogue {

    /// Servers that ask who the client is (TLS client authentication), under TLS 1.2 and TLS 1.3: the client's
    /// answer through its handler, and the code of every refusal.
    static var clientCertificates: [ConformanceCase] {
        [MockServer.TLS.Version.tls12, .tls13].flatMap(clientCertificateCases) + [
            reuseWithAnotherIdentity, reuseWithADifferentIdentity, reuseWithAnIdentityAfterNone,
        ]
            + postHandshake
    }

    /// A TLS 1.3 server that asks only after the handshake, once it has read the request head: libcurl offers
    /// post-handshake authentication, and the same handler answers, during the request.
    private static var postHandshake: [ConformanceCase] {
        [
            ConformanceCase(
                id: "clientcert.post-handshake.presented",
                title: "a server asking for a client certificate after the handshake gets the handler's identity", rules: ["TRUST-10"],
                explanation:
                    "The server (TLS 1.3 only) completes the handshake without asking, reads the request head, then sends a post-handshake CertificateRequest and answers only once the client's certificate verified against root A. The handler presents an identity issued under root A. The fetch succeeds, and the server saw that leaf.",
                server: asking(.postHandshake, .tls13), stack: StackSetup(handler: .presenting("client-valid")),
                expected: Expectation(
                    success(), journal: JournalExpectation(requests: 1), checks: [.presentedClientCertificates([clientLeaf])])),
            ConformanceCase(
                id: "clientcert.post-handshake.missing",
                title: "a client certificate missing after the handshake is clientCertificateRequired", rules: ["TRUST-10", "ERR-23"],
                explanation:
                    "The server (TLS 1.3 only) asks for a client certificate after the handshake, once it has read the request head, and requires one. The stack has no handler, so it presents none; the server refuses with a certificate_required alert instead of a response. The fetch fails with clientCertificateRequired, not as a lost connection. A server can ask after the handshake only a client that offered post-handshake authentication, which a stack without client certificates need not do: the case needs the client-certificates and post-handshake-client-certificates features.",
                server: asking(.postHandshake, .tls13),
                expected: Expectation(url(.clientCertificateRequired), journal: JournalExpectation(requests: 1))),
        ]
    }

    private static let clientLeaf = "CN=Fixture client-valid Client"

    /// A server for `valid-ec256` asking for a client certificate, at most at `version`, answering `ok` to every request.
    private static func asking(_ demand: ServerScript.ClientCertificateDemand, _ version: MockServer.TLS.Version) -> ServerScript {
        var script = ServerScript(tlsScenario: "valid-ec256", repeating: ok(), tlsMaximumVersion: version)
        script.clientCertificates = demand
        return script
    }

    private static func clientCertificateCases(_ version: MockServer.TLS.Version) -> [ConformanceCase] {
        let v = version == .tls12 ? "tls12" : "tls13"
        let tls = version == .tls12 ? "TLS 1.2" : "TLS 1.3"
        let refusalMoment =
            version == .tls12
            ? "The server refuses in the handshake."
            : "Under TLS 1.3 the server refuses after the client's side of the handshake has finished, so the client may already have written its request: the refusal must still be reported as one."
        // A TLS 1.2 refusal is a bare handshake_failure alert: only a stack that saw the server's CertificateRequest
        // can tell it from any other failed handshake. TLS 1.3's certificate_required alert says it to every stack.
        let missingNeeds =
            version == .tls12
            ? " The refusal is a handshake_failure alert, which says nothing of a certificate: only a stack that saw the server ask can tell, so the case needs the client-certificates feature."
            : " The refusal is a certificate_required alert, which any stack can read: the case runs whether or not the stack presents client certificates."
        func refused(_ scenario: String, _ what: String) -> ConformanceCase {
            ConformanceCase(
                id: "clientcert.\(scenario.dropFirst("client-".count)).\(v)",
                title: "a client certificate the server refuses (\(what)) is clientCertificateRejected (\(tls))", rules: ["ERR-23"],
                explanation:
                    "The server requires a client certificate verified against root A. The handler presents \(what). \(refusalMoment) The fetch fails with clientCertificateRejected, not as a lost connection nor as a refusal of the server's own certificate.",
                server: asking(.required, version), stack: StackSetup(handler: .presenting(scenario)),
                expected: Expectation(url(.clientCertificateRejected), journal: JournalExpectation(requests: 0)))
        }
        return [
            ConformanceCase(
                id: "clientcert.required.presented.\(v)", title: "a required client certificate is presented from the handler (\(tls))",
                rules: ["TRUST-10"],
                explanation:
                    "The server requires a client certificate verified against root A. The handler answers the challenge with an identity issued under root A (leaf and intermediate). The fetch succeeds, and the server saw that leaf.",
                server: asking(.required, version), stack: StackSetup(handler: .presenting("client-valid")),
                expected: Expectation(
                    success(), journal: JournalExpectation(requests: 1), checks: [.presentedClientCertificates([clientLeaf])])),
            ConformanceCase(
                id: "clientcert.required.missing.\(v)",
                title: "a required client certificate that is missing is clientCertificateRequired (\(tls))",
                rules: ["ERR-23"],
                explanation:
                    "The server requires a client certificate; the stack has no handler, so it presents none. \(refusalMoment) The fetch fails with clientCertificateRequired.\(missingNeeds)",
                requires: version == .tls12 ? [.clientCertificates] : [], server: asking(.required, version),
                expected: Expectation(url(.clientCertificateRequired), journal: JournalExpectation(requests: 0))),
            refused("client-expired", "a certificate that expired in 2021"),
            ConformanceCase(
                id: "clientcert.unusable-identity.\(v)",
                title: "an identity the client's own TLS library refuses to use is secureConnectionFailed (\(tls))", rules: ["ERR-23"],
                explanation:
                    "The server requires a client certificate. The handler presents an identity on an RSA-1024 key, which OpenSSL at its default security level refuses to present: the client's configuration failed, the server refused nothing. The fetch fails with secureConnectionFailed, not clientCertificateRejected, and no request byte is sent.",
                requires: [.clientCertificates], server: asking(.required, version),
                stack: StackSetup(handler: .presenting("client-weak-key")),
                expected: Expectation(url(.secureConnectionFailed), journal: JournalExpectation(requests: 0))),
            refused("client-other-ca", "a certificate issued under a root the server does not trust"),
            refused("client-server-eku", "a certificate whose extended key usage is serverAuth only"),
            ConformanceCase(
                id: "clientcert.optional.absent.\(v)",
                title: "a server that only asks gets no certificate, and serves the request (\(tls))",
                rules: ["TRUST-10"],
                explanation:
                    "The server asks for a client certificate but does not require one. The stack has no handler, so it presents none, and the fetch succeeds.",
                server: asking(.optional, version),
                expected: Expectation(success(), journal: JournalExpectation(requests: 1), checks: [.presentedClientCertificates(["none"])])
            ),
            ConformanceCase(
                id: "clientcert.acceptable-issuers.\(v)",
                title: "the client-certificate challenge names the CAs the server accepts (\(tls))", rules: ["TRUST-10"],
                explanation:
                    "The server asks for a client certificate and names, as the CA it accepts, root A (its CertificateRequest's certificate_authorities). The handler presents an identity issued under root A. Its challenge names CN=Fixture Root A, which a handler holding several identities chooses by; a stack that leaves the names out gives it nothing to choose by.",
                requires: [.clientCertificateIssuers], server: asking(.optional, version),
                stack: StackSetup(handler: .presenting("client-valid")),
                expected: Expectation(
                    success(), journal: JournalExpectation(requests: 1),
                    checks: [.clientChallengesNameIssuers(["CN=Fixture Root A"]), .clientChallengesReused([false])])),
            ConformanceCase(
                id: "clientcert.handler-cancels.\(v)", title: "a handler that cancels the challenge abandons the connection (\(tls))",
                rules: ["TRUST-10", "ERR-23"],
                explanation:
                    "The server asks for a client certificate, and the handler cancels the challenge. The connection is abandoned before any request byte: the fetch fails with clientCertificateRequired.",
                server: asking(.optional, version), stack: StackSetup(handler: .cancellingClientCertificate),
                expected: Expectation(url(.clientCertificateRequired), journal: JournalExpectation(requests: 0, noApplicationBytes: true))),
            ConformanceCase(
                id: "clientcert.pin-refused-first.\(v)", title: "a server its pins refuse is sent no client identity (\(tls))",
                rules: ["TRUST-11"],
                explanation:
                    "The server requires a client certificate. The handler pins localhost to a key of no certificate, and would present an identity to a trusted server. The pins refuse the server first: the fetch fails with serverCertificateUntrusted, and the server received no client certificate.",
                server: asking(.required, version), stack: StackSetup(handler: .pinningUnknownKeyPresenting("client-valid")),
                expected: Expectation(
                    Outcome(
                        kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:noPinMatched"),
                    journal: JournalExpectation(requests: 0), checks: [.presentedClientCertificates(["none"])])),
        ]
    }

    private static var reuseWithAnotherIdentity: ConformanceCase {
        ConformanceCase(
            id: "clientcert.reuse.another-identity",
            title: "a fetch whose handler now presents no identity does not reuse a connection that presented one", rules: ["TRUST-12"],
            explanation:
                "The server asks for a client certificate but does not require one. The first fetch presents an identity issued under root A. The handler is then reconfigured to present none, and a second fetch follows: it must go on a new connection, which presented nothing, rather than on the pooled one. The handler is asked three times: in the first handshake, before the second request as about a reused connection, and in the new connection's handshake.",
            server: asking(.optional, .tls13), stack: StackSetup(handler: .presentingUntilReconfigured("client-valid")),
            action: .fetchReconfigureFetch,
            expected: Expectation(
                success(), journal: JournalExpectation(connections: 2, requests: 2),
                checks: [.presentedClientCertificates([clientLeaf, "none"]), .clientChallengesReused([false, true, false])]))
    }

    private static var reuseWithADifferentIdentity: ConformanceCase {
        ConformanceCase(
            id: "clientcert.reuse.different-identity",
            title: "a fetch whose handler now presents a different identity does not reuse a connection that presented the first",
            rules: ["TRUST-12"],
            explanation:
                "The server (TLS 1.3) asks for a client certificate and accepts both identities issued under root A. The first fetch presents client-valid; the handler is then reconfigured to present client-valid-2, and a second fetch follows: it must go on a new connection, which presents client-valid-2. A stack that only checks that the pooled connection presented an identity, not which, sends it as client-valid.",
            server: asking(.optional, .tls13),
            stack: StackSetup(handler: .presentingThenSwitching(from: "client-valid", to: "client-valid-2")),
            action: .fetchReconfigureFetch,
            expected: Expectation(
                success(), journal: JournalExpectation(connections: 2, requests: 2),
                checks: [
                    .presentedClientCertificates([clientLeaf, "CN=Fixture client-valid-2 Client"]),
                    .clientChallengesReused([false, true, false]),
                ]))
    }

    private static var reuseWithAnIdentityAfterNone: ConformanceCase {
        ConformanceCase(
            id: "clientcert.reuse.identity-after-none",
            title: "a fetch whose handler now presents an identity does not reuse a connection that presented none", rules: ["TRUST-12"],
            explanation:
                "The server (TLS 1.2) asks for a client certificate but does not require one. The handler first presents none; it is then reconfigured to present an identity issued under root A, and a second fetch follows: it must go on a new connection, which presents that identity, rather than on the pooled one. A stack that asks its handler again only on connections that presented an identity passes clientcert.reuse.another-identity and sends this fetch anonymously.",
            server: asking(.optional, .tls12), stack: StackSetup(handler: .presentingOnceReconfigured("client-valid")),
            action: .fetchReconfigureFetch,
            expected: Expectation(
                success(), journal: JournalExpectation(connections: 2, requests: 2),
                checks: [.presentedClientCertificates(["none", clientLeaf]), .clientChallengesReused([false, true, false])]))
    }
}
