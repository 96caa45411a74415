import Foundation
import MockServer

/// A case's first stage: its MockServer, started from the script (plain HTTP, or TLS serving the fixture
/// scenario's chain), answering from the script's queue or, when the case needs more, a ``ScriptedDispatch``.
struct CaseServer {
    let server: MockServer
    /// The dispatcher answering for the script, which also timed each request's arrival; `nil` with the queue.
    let dispatch: ScriptedDispatch?
    /// The fixture scenario served over TLS; `nil` for plain HTTP.
    let scenario: FixtureCatalogue.Scenario?
    /// The host name the client connects to.
    let host: String

    /// Starts the server of a case.
    init(for testCase: ConformanceCase, fixtures: FixtureCatalogue) throws(CaseStop) {
        let script = testCase.server
        var tls: MockServer.TLS?
        var scenario: FixtureCatalogue.Scenario?
        if let name = script.tlsScenario {
            guard let found = fixtures.scenario(name), let served = found.served, let key = found.key else {
                throw .harness("fixture scenario \(name) missing or without a chain")
            }
            scenario = found
            tls = Self.tls(serving: fixtures.path(served), key: fixtures.path(key), of: found, script: script, fixtures: fixtures)
        }
        self.scenario = scenario
        do {
            server = try MockServer(tls: tls)
        } catch {
            throw .harness("MockServer did not start: \(error)")
        }
        host = script.host
        let answers = script.resolvingOtherOrigin(port: server.port, isTLS: server.isTLS)
        dispatch = ScriptedDispatch.isNeeded(for: testCase) ? ScriptedDispatch(script: answers, started: .now) : nil
        if let dispatch {
            server.dispatcher = dispatch.dispatcher
        } else {
            for response in answers.responses { server.enqueue(response) }
            if let repeating = answers.repeating { server.dispatcher = MockDispatcher { _ in repeating } }
        }
    }

    private static func tls(
        serving chain: String, key: String, of scenario: FixtureCatalogue.Scenario, script: ServerScript, fixtures: FixtureCatalogue
    ) -> MockServer.TLS {
        var tls = MockServer.TLS(
            identity: .init(chainFile: chain, keyFile: key, stapledOCSPResponseFile: script.stapledOCSPResponse.map(fixtures.path)),
            maximumVersion: script.tlsMaximumVersion ?? .tls13,
            sessionResumption: script.sessionResumption, httpVersions: script.httpVersions)
        tls.resumption = script.resumption
        tls.servesWeakChains = scenario.kind == "profile"  // weak on purpose (a P-192 CA key)
        let clientRoots = fixtures.path("roots/root-a.pem")
        switch script.clientCertificates {
        case .required: tls.clientAuthentication = .required(trusting: clientRoots)
        case .optional: tls.clientAuthentication = .optional(trusting: clientRoots)
        case .postHandshake:
            tls.minimumVersion = .tls13
            tls.clientAuthentication = .postHandshake(trusting: clientRoots)
        case nil: break
        }
        return tls
    }

    var port: Int { server.port }
    var isTLS: Bool { server.isTLS }

    /// The journal as reports show it.
    var journal: [JournalEntry] { server.journal.map(JournalEntry.init) }

    /// The case's recorders, with URLs that point at this server: under the script's host name over TLS (the
    /// name the certificate is checked against), at 127.0.0.1 for plain HTTP.
    func makeRecorders() -> CaseRecorders {
        let port = server.port
        let scheme = server.isTLS ? "https" : "http"
        let urlHost = server.isTLS ? (host.contains(":") ? "[\(host)]" : host) : "127.0.0.1"
        return CaseRecorders(
            url: { path in URL(string: "\(scheme)://\(urlHost):\(port)\(path)")! },
            hostURL: { host, path in URL(string: "\(scheme)://\(host):\(port)\(path)")! })
    }

    /// Waits, up to a second in all, for every connection still open to close.
    ///
    /// The journal is read once every connection has ended (the stack is gone, so its side has closed), not
    /// while a close is still under way: who closed and how are then settled, and two runs of the same
    /// subject differ only where the stack itself raced. A connection still open at the deadline is reported open.
    func settle() {
        let settled = ContinuousClock.now + .seconds(1)
        for record in server.journal where record.closedBy == nil {
            let remaining = settled - .now
            guard remaining > .zero else { break }
            _ = try? server.waitForClose(ofConnection: record.index, timeout: remaining)
        }
    }

    func shutdown() { server.shutdown() }
}
