import ConformanceModel
import Foundation
import MockServer
import NetworkCore
import Pinning

extension Catalogue {

    /// Every new connection is judged by the handler, also when the server lets the client resume its TLS
    /// session (by session ID or ticket under TLS 1.2, by ticket under TLS 1.3), after `Connection: close`
    /// and on a redirect to the same origin after a close (TRUST-6). The handler trusts the first connection
    /// and refuses the next: a stack that skips the handler on a resumed session succeeds where it must fail.
    static var resumption: [ConformanceCase] {
        func closing(_ body: String) -> MockResponse { MockResponse(status: 200, body: Data(body.utf8), closeConnection: true) }
        var cases: [ConformanceCase] = []
        for (name, version) in [("tls12", MockServer.TLS.Version.tls12), ("tls13", .tls13)] {
            cases.append(
                ConformanceCase(
                    id: "trust.resumption.\(name).every-connection-judged",
                    title: "with session resumption on (\(name)), each new connection after a close is judged: a refusal holds",
                    rules: ["TRUST-6", "TRUST-3"],
                    explanation:
                        "The server offers session \(version == .tls12 ? "IDs and tickets" : "tickets") and closes after each response. Three sequential fetches; the handler trusts the first two connections and refuses the third: url(serverCertificateUntrusted), three challenges, two requests.",
                    requires: [.serverTrustChallenge],
                    server: ServerScript(
                        tlsScenario: "valid-ec256", responses: [closing("1"), closing("2"), closing("3")], sessionResumption: true,
                        tlsMaximumVersion: version),
                    stack: StackSetup(handler: .sequence([.useCredential, .useCredential, .refuse])), action: .sequential(3),
                    expected: Expectation(
                        Outcome(
                            kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:refused"),
                        journal: JournalExpectation(connections: 3, requests: 2), checks: [.challenges(3), .completions(3)])))
        }
        cases.append(
            ConformanceCase(
                id: "trust.resumption.redirect-same-origin-after-close.judged",
                title: "a redirect to the same origin after Connection: close is judged on its new connection",
                rules: ["TRUST-6", "HTTP-11"],
                explanation:
                    "A 302 to /next with Connection: close, from a server offering session resumption; the handler trusts the first connection and refuses the second: the redirect fails with url(serverCertificateUntrusted) and /next is never requested.",
                requires: [.serverTrustChallenge],
                server: ServerScript(
                    tlsScenario: "valid-ec256",
                    responses: [
                        MockResponse(status: 302, headers: ["Location": "/next"], closeConnection: true), ok("next"),
                    ], sessionResumption: true),
                stack: StackSetup(handler: .sequence([.useCredential, .refuse])),
                expected: Expectation(
                    Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:refused"),
                    journal: JournalExpectation(connections: 2, requests: 1), checks: [.challenges(2)])))
        cases.append(
            ConformanceCase(
                id: "trust.resumption.redirect-same-origin-after-close.followed",
                title: "a redirect to the same origin after Connection: close asks the handler again and succeeds",
                rules: ["TRUST-6", "HTTP-9"], level: .should,
                explanation:
                    "As trust.resumption.redirect-same-origin-after-close.judged, with a handler that applies standard validation: two connections, two challenges, and the redirect's target.",
                requires: [.serverTrustChallenge],
                server: ServerScript(
                    tlsScenario: "valid-ec256",
                    responses: [
                        MockResponse(status: 302, headers: ["Location": "/next"], closeConnection: true), ok("next"),
                    ], sessionResumption: true),
                stack: StackSetup(handler: .scripted(.performDefaultHandling)),
                expected: Expectation(
                    success("next"), journal: JournalExpectation(connections: 2, requests: 2),
                    checks: [.challenges(2), .requestPath(index: 1, path: "/next")])))
        return cases + resumedSessions + reusedVerdicts
    }

    /// What a stack that resumes sessions does with a resumed connection (TRUST-17): judge it as a new one, from what
    /// the session's full handshake established, and never resume where that judgement would not hold.
    private static var resumedSessions: [ConformanceCase] {
        func closing(_ body: String) -> MockResponse { MockResponse(status: 200, body: Data(body.utf8), closeConnection: true) }
        let refused = Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:refused")
        var cases: [ConformanceCase] = []
        for (name, version) in [("tls12", MockServer.TLS.Version.tls12), ("tls13", .tls13)] {
            cases.append(
                ConformanceCase(
                    id: "trust.resumption.\(name).resumed-and-judged",
                    title: "connections that resume a session (\(name)) are judged as new ones: a refusal of one holds, before its request",
                    rules: ["TRUST-17", "TRUST-3"],
                    explanation:
                        "The server offers session resumption and closes after each response. Three sequential fetches: the second and third connections resume a session, and the handler, asked on each as on a new connection, trusts the first two and refuses the third: url(serverCertificateUntrusted), three challenges, two requests, two resumed sessions. A stack that trusts a resumed session on its first verdict, without asking again, succeeds.",
                    requires: [.serverTrustChallenge, .sessionResumption],
                    server: ServerScript(
                        tlsScenario: "valid-ec256", responses: [closing("1"), closing("2"), closing("3")], sessionResumption: true,
                        tlsMaximumVersion: version),
                    stack: StackSetup(handler: .sequence([.useCredential, .useCredential, .refuse])), action: .sequential(3),
                    expected: Expectation(
                        refused, journal: JournalExpectation(connections: 3, requests: 2, sessionsResumed: 2),
                        checks: [.challenges(3), .completions(3)])))
        }
        cases.append(
            ConformanceCase(
                id: "trust.resumption.same-evidence",
                title: "the handler is asked on a resumed connection with the evidence of the session's full handshake",
                rules: ["TRUST-17", "TRUST-4"],
                explanation:
                    "Two sequential fetches to a server that offers session resumption and closes after each response; the second connection resumes. The handler is asked on both, each time with the served and verified chains and standard validation's verdict of the first, full, handshake, and neither time as a reused-connection re-check: a resumed session carries no certificate, so a stack that passes what the resumed handshake brought gives the handler empty chains, which a pin can never match.",
                requires: [.serverTrustChallenge, .sessionResumption],
                server: ServerScript(
                    tlsScenario: "valid-ec256", responses: [closing("1"), closing("2")], sessionResumption: true),
                stack: StackSetup(handler: .scripted(.performDefaultHandling)), action: .sequential(2),
                expected: Expectation(
                    success("2"), journal: JournalExpectation(connections: 2, requests: 2, sessionsResumed: 1),
                    checks: [.challenges(2), .challengesCarryTheFirstEvidence])))
        cases.append(
            ConformanceCase(
                id: "trust.resumption.out-of-date-chain.full-handshake",
                title: "a session whose chain was out of date when trusted is never resumed: each connection is verified in full",
                rules: ["TRUST-17"],
                explanation:
                    "expired-leaf, trusted by a handler that overrules standard validation, from a server that offers session resumption and closes after each response. The verdict a session keeps holds only while every certificate it judged is within its validity period, and this leaf already was not: the second connection makes a full handshake, no session resumed. A stack that replays a kept verdict whatever the dates resumes it.",
                requires: [.serverTrustChallenge, .sessionResumption],
                server: ServerScript(
                    tlsScenario: "expired-leaf", responses: [closing("1"), closing("2")], sessionResumption: true),
                stack: StackSetup(handler: .scripted(.useCredential)), action: .sequential(2),
                expected: Expectation(
                    success("2"), journal: JournalExpectation(connections: 2, requests: 2, sessionsResumed: 0),
                    checks: [.challenges(2)])))
        cases += sessionScripts
        var asking = ServerScript(
            tlsScenario: "valid-ec256", responses: [closing("1"), closing("2")], sessionResumption: true, tlsMaximumVersion: .tls13)
        asking.clientCertificates = .optional
        cases.append(
            ConformanceCase(
                id: "trust.resumption.client-identity-changed.full-handshake",
                title: "a session made presenting one client identity is not resumed once the handler presents another",
                rules: ["TRUST-17", "TRUST-12"],
                explanation:
                    "The server (TLS 1.3) asks for a client certificate, accepts both identities issued under root A, offers session resumption and closes after each response. The first fetch presents client-valid; the handler is then reconfigured to present client-valid-2, and the second fetch's connection must not resume the session, which would carry the first identity to the server without asking: a full handshake presents client-valid-2.",
                server: asking, stack: StackSetup(handler: .presentingThenSwitching(from: "client-valid", to: "client-valid-2")),
                action: .fetchReconfigureFetch,
                expected: Expectation(
                    success("2"), journal: JournalExpectation(connections: 2, requests: 2, sessionsResumed: 0),
                    checks: [.presentedClientCertificates(["CN=Fixture client-valid Client", "CN=Fixture client-valid-2 Client"])])))
        return cases
    }

    /// What servers do with sessions (offers turned down, tickets by the thousand, two names on one address) never
    /// changes the judgement (TRUST-17): a session goes only to the name it was made for, and a connection whose offer
    /// was turned down is judged in full.
    private static var sessionScripts: [ConformanceCase] {
        let closing = MockResponse(status: 200, body: Data("ok".utf8), closeConnection: true)
        var cases: [ConformanceCase] = []
        for (name, version) in [("tls12", MockServer.TLS.Version.tls12), ("tls13", .tls13)] {
            var twoNames = ServerScript(
                tlsScenario: "multi-host", host: "a.example.test", repeating: closing, sessionResumption: true, tlsMaximumVersion: version)
            twoNames.httpVersions = .http1Only
            cases.append(
                ConformanceCase(
                    id: "trust.resumption.\(name).other-name.never-offered",
                    title: "a session is offered only to the host name it was made for, not to another name on the same address (\(name))",
                    rules: ["TRUST-17"],
                    explanation:
                        "One server, one address, a certificate naming a.example.test and b.example.test, session resumption on, every connection closed after its response. a.example.test, then b.example.test, then a.example.test again: only the third connection offers a session (a.example.test's own), and resumes it. A stack that keys its sessions by address or port offers a.example.test's session to b.example.test; the server, whose tickets serve every name it hosts, would resume it, and b.example.test would be trusted on a judgement made for another name.",
                    requires: [.sessionResumption, .resolveOverrides], server: twoNames,
                    action: .hosts(["a.example.test", "b.example.test", "a.example.test"]),
                    expected: Expectation(
                        success("ok"), journal: JournalExpectation(connections: 3, requests: 3, sessionsResumed: 1, sessionsOffered: 1),
                        checks: [.fetches(path: "b.example.test", kind: .success, count: 1)])))
        }
        // Three sequential fetches to a server that closes after each response, scripted as `resumption` says; the
        // handler trusts the first two connections and refuses the third.
        func thirdRefused(
            _ id: String, _ title: String, rules: [String], explanation: String, resumption: MockServer.TLS.SessionResumption,
            journal: JournalExpectation
        ) -> ConformanceCase {
            var script = ServerScript(
                tlsScenario: "valid-ec256", responses: [closing, closing, closing], sessionResumption: true, tlsMaximumVersion: .tls13)
            script.resumption = resumption
            return ConformanceCase(
                id: "trust.resumption.\(id)", title: title, rules: rules, explanation: explanation,
                requires: [.serverTrustChallenge, .sessionResumption], server: script,
                stack: StackSetup(handler: .sequence([.useCredential, .useCredential, .refuse])), action: .sequential(3),
                expected: Expectation(
                    Outcome(kind: .url, urlErrorCode: URLError.Code.serverCertificateUntrusted.rawValue, trustFailure: "handler:refused"),
                    journal: journal, checks: [.challenges(3), .completions(3)]))
        }
        cases.append(
            thirdRefused(
                "offer-turned-down.judged-in-full",
                "a connection whose session offer the server turns down is a full handshake, judged as one",
                rules: ["TRUST-17", "TRUST-6"],
                explanation:
                    "The server sends tickets but turns down every session offered (as a server whose ticket keys rotated), and closes after each response. Three sequential fetches; the handler trusts the first two connections and refuses the third. The second and third connections offer a session, resume none, and each is judged: url(serverCertificateUntrusted), three challenges, two requests. A stack that takes an offered session for a resumed one skips or misplaces the judgement.",
                resumption: .init(acceptsOffers: false),
                journal: JournalExpectation(connections: 3, requests: 2, sessionsResumed: 0, sessionsOffered: 2)))
        cases.append(
            thirdRefused(
                "ticket-flood.resumed-and-judged",
                "a server that sends 1 000 tickets per connection is still judged on every resumed connection",
                rules: ["TRUST-17", "TRUST-3"],
                explanation:
                    "The server sends 1 000 TLS 1.3 tickets (about 250 KB) after every handshake and closes after each response. Three sequential fetches: the second and third resume a session, the handler trusts the first two connections and refuses the third: url(serverCertificateUntrusted), three challenges, two requests, two resumed sessions. A stack keeps a bounded number of sessions however many tickets arrive; one that chokes on the flood fails the fetches.",
                resumption: .init(ticketsPerConnection: 1_000), journal: JournalExpectation(connections: 3, requests: 2, sessionsResumed: 2)
            ))
        return cases
    }

    /// A pooled connection keeps its handshake's verdict: after a lax handler trusted a chain standard
    /// validation refused, the re-check on reuse still tells a stricter handler that the chain does not
    /// verify, and the stricter handler refuses before the request is written (TRUST-6, TRUST-4).
    private static var reusedVerdicts: [ConformanceCase] {
        let rootA = ["roots/root-a.pem"]
        func reused(
            _ id: String, _ title: String, explanation: String, scenario: String, handler: HandlerSpec,
            code: URLError.Code, trustFailure: String, validation: String
        ) -> ConformanceCase {
            ConformanceCase(
                id: "trust.reused.\(id)", title: title, rules: ["TRUST-6", "TRUST-4", "TRUST-3"], explanation: explanation,
                requires: [.serverTrustChallenge], server: .tls(scenario, ok("1"), ok("2")),
                stack: StackSetup(trustedRoots: rootA, handler: handler), action: .fetchReconfigureFetch,
                expected: Expectation(
                    Outcome(kind: .url, urlErrorCode: code.rawValue, trustFailure: trustFailure),
                    journal: JournalExpectation(connections: 1, requests: 1),
                    checks: [.challenges(2), .laterChallengesAreReused, .lastChallengeStandardValidation(validation), .completions(2)]))
        }
        return [
            reused(
                "lax-then-strict.untrusted-root", "a connection a lax handler trusted is refused by a stricter one on reuse",
                explanation:
                    "untrusted-root: fetch 1's handler answers useCredential and succeeds; the handler then trusts only what standard validation passes. Fetch 2 reuses the connection: the re-check still reports unable-to-get-issuer, and the request is refused before it is written.",
                scenario: "untrusted-root", handler: .reconfiguredScripted(.useCredential, then: .refuseUnlessValid),
                code: .serverCertificateUntrusted, trustFailure: "handler:chainNotTrusted(unable-to-get-issuer)",
                validation: "unable-to-get-issuer"),
            reused(
                "lax-then-default.expired-leaf", "a connection trusted despite an expired leaf fails standard validation on reuse",
                explanation:
                    "expired-leaf: fetch 1's handler answers useCredential; then performDefaultHandling. Fetch 2 on the pooled connection gets standard validation's verdict, expired: url(serverCertificateHasBadDate), one request in all.",
                scenario: "expired-leaf", handler: .reconfiguredScripted(.useCredential, then: .performDefaultHandling),
                code: .serverCertificateHasBadDate, trustFailure: "chain:expired", validation: "expired"),
            reused(
                "trust-manager.disabled-then-standard",
                "a TrustManager policy made strict refuses the connection its disabled policy trusted",
                explanation:
                    "untrusted-root under a disabled policy for localhost: fetch 1 succeeds. The policy is replaced by a standard one; fetch 2 reuses the connection and is refused with chainNotTrusted before its request is written.",
                scenario: "untrusted-root",
                handler: .reconfiguredTrustManager("disabled, then standard") { manager, _ in
                    [manager.create(type: .disabled, hostName: "localhost")]
                } then: { manager, _ in
                    manager.add(policy: manager.create(type: .standard, hostName: "localhost"))
                },
                code: .serverCertificateUntrusted, trustFailure: "handler:chainNotTrusted(unable-to-get-issuer)",
                validation: "unable-to-get-issuer"),
        ]
    }
}
