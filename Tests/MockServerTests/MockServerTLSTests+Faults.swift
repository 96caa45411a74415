import Foundation
import MockServer
import TestTraits
import Testing

/// Connection faults over TLS: at accept, after the ClientHello, and around the close.
extension MockServerTLSTests {
    @Test("closeAtAccept fails the TLS connect")
    func closeAtAcceptFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.closeAtAccept))
        #expect(curlTLS(server).exitCode == 35)
    }

    @Test("resetAtAccept fails the TLS connect")
    func resetAtAcceptFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.resetAtAccept))
        // The RST can land while curl still counts the TCP connect as in progress (7) or in the handshake (35).
        #expect([7, 35].contains(curlTLS(server).exitCode))
        #expect(closedRecord(server)?.closeKind == .reset)
    }

    @Test("stallAtAccept times the client out")
    func stallAtAcceptTimesTheClientOut() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.stallAtAccept))
        #expect(curlTLS(server, maxTime: 1).exitCode == 28)
    }

    @Test("closeAfterClientHello fails the TLS connect")
    func closeAfterClientHelloFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.closeAfterClientHello))
        #expect(curlTLS(server).exitCode == 35)
        #expect(server.journal.first?.handshake == .pending)
    }

    @Test("resetAfterClientHello fails the TLS connect")
    func resetAfterClientHelloFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.resetAfterClientHello))
        #expect(curlTLS(server).exitCode == 35)
    }

    @Test("stallAfterClientHello times the client out")
    func stallAfterClientHelloTimesTheClientOut() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.stallAfterClientHello))
        #expect(curlTLS(server, maxTime: 1).exitCode == 28)
    }

    @Test("a plaintext reply to the ClientHello fails the TLS connect")
    func aPlaintextReplyToTheClientHelloFailsTheTLSConnect() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.plaintextReplyToClientHello))
        #expect(curlTLS(server).exitCode == 35)
    }

    @Test("a fatal alert after the ClientHello fails the TLS connect and curl names it")
    func aFatalAlertAfterTheClientHelloFailsTheTLSConnectAndCurlNamesIt() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.fatalAlertAfterClientHello))

        let result = curlTLS(server)

        #expect(result.exitCode == 35, "\(result.stderr)")
        #expect(result.stderr.contains("alert handshake failure"), "\(result.stderr)")
        let record = closedRecord(server)
        #expect(record?.fault == .fatalAlertAfterClientHello)
        #expect(record?.handshake == .pending)
        #expect(record?.closedBy == .server)
        #expect(record?.applicationBytesReceived == 0)
        #expect(server.shutdown().isClean, "the fault's response was consumed after the ClientHello")
    }

    @Test("a fatal alert after the ClientHello is the alert s_client reads")
    func aFatalAlertAfterTheClientHelloIsTheAlertSClientReads() throws {
        let server = try makeTLSServer()
        server.enqueue(.fault(.fatalAlertAfterClientHello))

        let result = TestProcess.run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-msg"],
            stdin: Data())

        #expect(result.status == 1)
        // -msg prints the record as read: a fatal handshake_failure alert, level 2, description 40, and nothing else.
        #expect(result.stdout.contains("Alert [length 0002], fatal handshake_failure"), "\(result.stdout)")
        #expect(result.stdout.contains("02 28"), "\(result.stdout)")
        #expect(result.stdout.contains("SSL handshake has read 7 bytes"), "\(result.stdout)")
        #expect(result.stderr.contains("SSL alert number 40"), "\(result.stderr)")
    }

    @Test("closeWithoutCloseNotify after a framed body still succeeds")
    func closeWithoutCloseNotifyAfterAFramedBodyStillSucceeds() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(body: Data("whole".utf8), fault: .closeWithoutCloseNotify))

        let result = curlTLS(server)

        #expect(result.exitCode == 0, "\(result.stderr)")
        #expect(result.body == "whole")
    }

    @Test("closeWithoutCloseNotify skips the alert that a normal close sends", arguments: [MockFault?.none, .closeWithoutCloseNotify])
    func closeWithoutCloseNotifySkipsTheAlertThatANormalCloseSends(fault: MockFault?) throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(body: Data("whole".utf8), closeConnection: true, fault: fault))

        let output = TestProcess.run(
            "/usr/bin/openssl", ["s_client", "-connect", "127.0.0.1:\(server.port)", "-servername", "localhost", "-ign_eof", "-quiet"],
            stdin: Data("GET / HTTP/1.1\r\nHost: localhost\r\n\r\n".utf8))

        #expect(output.stdout.hasSuffix("whole"), "\(output.stdout)")
        // s_client reports a TCP close that no close_notify preceded as an unexpected EOF, and fails.
        #expect(output.stderr.contains("unexpected eof") == (fault != nil), "\(output.stderr)")
        #expect(output.status == (fault == nil ? 0 : 1))
    }

    @Test("a response fault over TLS is seen by the client")
    func aResponseFaultOverTLSIsSeenByTheClient() throws {
        let server = try makeTLSServer()
        server.enqueue(MockResponse(fault: .closeWithNoReply))
        #expect(curlTLS(server).exitCode == 52)
    }
}
