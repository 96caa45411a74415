import Foundation
import MockServer
import TestTraits
import Testing

/// What a server scripts about TLS sessions (``MockServer/TLS/SessionResumption``) and what the journal says of them,
/// driven by `openssl s_client` saving and offering sessions.
@Suite("Scripted session resumption", .scaledTimeLimit(minutes: 2), .blocking)
struct MockServerSessionResumptionTests: ServerTests {

    @Test(
        "a session the client offers is journaled, and so is its resumption: by ticket, PSK or TLS 1.2 session ID",
        arguments: [["-tls1_2"], ["-tls1_3"], ["-tls1_2", "-no_ticket"]])
    func offeredAndResumed(options: [String]) throws {
        let server = try server()
        let session = sessionFile("offered\(options.joined())")
        _ = connect(server, ["-sess_out", session] + options)
        _ = connect(server, ["-sess_in", session] + options)
        let journal = server.journal
        #expect(journal.map(\.sessionOffered) == [false, true])
        #expect(journal.map(\.sessionReused) == [false, true])
    }

    @Test(
        "a server that turns every offer down still sends a ticket, and no connection resumes",
        arguments: [["-tls1_2"], ["-tls1_3"], ["-tls1_2", "-no_ticket"]])
    func offersTurnedDown(options: [String]) throws {
        let server = try server(.init(acceptsOffers: false))
        let session = sessionFile("turned-down\(options.joined())")
        _ = connect(server, ["-sess_out", session] + options)
        #expect(sessionText(session).contains("TLS session ticket:") == !options.contains("-no_ticket"))
        _ = connect(server, ["-sess_in", session] + options)
        let journal = server.journal
        #expect(journal.map(\.sessionOffered) == [false, true])
        #expect(journal.map(\.sessionReused) == [false, false])
        #expect(journal.allSatisfy { $0.handshake == .succeeded })
    }

    @Test("a TLS 1.3 server sends as many tickets per connection as scripted", arguments: [0, 1, 300])
    func ticketCount(count: Int) throws {
        let server = try server(.init(ticketsPerConnection: count))
        let output = connect(server, ["-tls1_3", "-msg"])
        let tickets = output.components(separatedBy: "NewSessionTicket").count - 1
        #expect(tickets == count)
    }

    @Test("the ticket's lifetime is the scripted one", arguments: ["-tls1_2", "-tls1_3"])
    func ticketLifetime(version: String) throws {
        let server = try server(.init(ticketLifetime: 42))
        let session = sessionFile("lifetime\(version)")
        _ = connect(server, ["-sess_out", session, version])
        #expect(sessionText(session).contains("ticket lifetime hint: 42 (seconds)"))
    }

    @Test("servers sharing ticket keys resume each other's sessions, whatever certificates they serve")
    func sharedTicketKeys() throws {
        let files = TestCertificates.shared
        let keys = MockServer.TLS.TicketKeys.random()
        let first = try server(.init(ticketKeys: keys))
        var other = MockServer.TLS(identity: .init(chainFile: files.otherLeafOnly, keyFile: files.otherLeafKey), sessionResumption: true)
        other.resumption.ticketKeys = keys
        let second = try makeServer(tls: other)
        second.dispatcher = Self.closing
        let stranger = try server()
        let session = sessionFile("shared-keys")
        _ = connect(first, ["-sess_out", session])
        _ = connect(second, ["-sess_in", session])
        _ = connect(stranger, ["-sess_in", session])
        #expect(second.journal.map(\.sessionReused) == [true])
        #expect(stranger.journal.map(\.sessionOffered) == [true])
        #expect(stranger.journal.map(\.sessionReused) == [false])
    }

    @Test("ticket keys that are not 80 bytes, a ticket count past 10 000 and a lifetime of 0 are typed errors")
    func badScripts() {
        #expect(throws: MockServerError.self) { try MockServer.TLS.TicketKeys(bytes: [1, 2, 3]) }
        for script in [MockServer.TLS.SessionResumption(ticketsPerConnection: 10_001), .init(ticketLifetime: 0)] {
            let error = #expect(throws: MockServerError.self) { try server(script) }
            #expect(error?.code == .tlsSetupFailed)
        }
    }

    // MARK: Helpers

    /// Answers every request and closes, so that s_client, reading until the close, has read the tickets too.
    private static let closing = MockDispatcher { _ in MockResponse(body: Data("ok".utf8), closeConnection: true) }

    private func server(_ resumption: MockServer.TLS.SessionResumption = .init()) throws -> MockServer {
        let files = TestCertificates.shared
        var tls = MockServer.TLS(identity: .init(chainFile: files.servedChain, keyFile: files.leafKey), sessionResumption: true)
        tls.resumption = resumption
        let server = try makeServer(tls: tls)
        server.dispatcher = Self.closing
        return server
    }

    /// One s_client connection that sends a request and reads until the server closes, so that TLS 1.3 tickets,
    /// sent after the handshake, are read (and saved with `-sess_out`).
    private func connect(_ server: MockServer, _ extra: [String]) -> String {
        let result = TestProcess.run(
            "/usr/bin/openssl",
            ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-ign_eof"] + extra,
            stdin: Data("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))
        _ = closedRecord(server, server.journal.count - 1)
        return result.stdout
    }

    private func sessionFile(_ name: String) -> String { TestCertificates.shared.path("session-\(name).pem") }

    private func sessionText(_ file: String) -> String {
        TestProcess.run("/usr/bin/openssl", ["sess_id", "-in", file, "-noout", "-text"]).stdout
    }
}
